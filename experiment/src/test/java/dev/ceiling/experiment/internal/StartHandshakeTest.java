package dev.ceiling.experiment.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.generator.GeneratorException;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

/** The handshake's two lines, and the child's side of it, without processes. */
class StartHandshakeTest {

  /**
   * Stdin whose parent never goes away: bytes handed to it, then a block forever (an end of stream
   * would end the test JVM, as it ends a child whose parent is gone).
   */
  static final class OpenStdin extends InputStream {
    final LinkedBlockingQueue<Integer> bytes = new LinkedBlockingQueue<>();

    void line(String s) {
      for (byte b : (s + "\n").getBytes(StandardCharsets.UTF_8)) {
        bytes.add(b & 0xff);
      }
    }

    @Override
    public int read() {
      try {
        return bytes.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return read();
      }
    }

    /** Blocks for the first byte only, then takes what is there. */
    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      b[off] = (byte) read();
      int n = 1;
      Integer next;
      while (n < len && (next = bytes.poll()) != null) {
        b[off + n++] = next.byteValue();
      }
      return n;
    }
  }

  @Test
  void theStartLineCarriesTheInstantExactly() {
    Instant at = Instant.parse("2026-12-07T17:30:00.123Z");
    assertThat(StartHandshake.parseStartLine(StartHandshake.startLine(at))).isEqualTo(at);
  }

  @Test
  void aMalformedStartLineIsRefusedNamingIt() {
    assertThatThrownBy(() -> StartHandshake.parseStartLine("start-at tomorrow"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "expected 'start-at <ISO-8601 instant>' from the parent, got 'start-at tomorrow'");
    assertThatThrownBy(() -> StartHandshake.parseStartLine(StartHandshake.READY))
        .hasMessageContaining("got 'ready'");
  }

  /** Ready goes out before the wait; the instant the parent writes is the one returned. */
  @Test
  void theGateSaysReadyThenReturnsTheParentsInstant() throws Exception {
    OpenStdin in = new OpenStdin();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StdinStartGate gate =
        StdinStartGate.watch(
            in, new PrintStream(out, true, StandardCharsets.UTF_8), Duration.ofSeconds(30));
    Instant at = Instant.parse("2026-12-07T17:30:00Z");
    Thread parent =
        new Thread(
            () -> {
              // The parent answers only after it has read the ready line.
              while (!out.toString(StandardCharsets.UTF_8).contains("\n")) {
                Thread.onSpinWait();
              }
              in.line(StartHandshake.startLine(at));
            });
    parent.start();
    assertThat(gate.awaitStart()).isEqualTo(at);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(StartHandshake.READY + "\n");
  }

  /** A parent that never answers: the child fails once its longest wait has passed. */
  @Test
  void noInstantWithinTheLongestWaitFailsTheChild() {
    StdinStartGate gate =
        StdinStartGate.watch(
            new OpenStdin(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            Duration.ofMillis(200));
    assertThatThrownBy(gate::awaitStart)
        .isInstanceOf(GeneratorException.class)
        .hasMessage("ready, but no start instant came from the parent within 0.2 s");
  }

  @Test
  void aMalformedLineFromTheParentFailsTheChildNamingIt() {
    OpenStdin in = new OpenStdin();
    in.line("start-at soon");
    StdinStartGate gate =
        StdinStartGate.watch(
            in,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            Duration.ofSeconds(30));
    assertThatThrownBy(gate::awaitStart)
        .isInstanceOf(GeneratorException.class)
        .hasMessageContaining("got 'start-at soon'");
  }
}
