package dev.ceiling.experiment.internal;

import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.StartGate;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A generator child's side of the {@link StartHandshake}: {@link StartHandshake#READY} on stdout
 * when the generator is ready, the start instant from the first line of stdin. Stdin is also how
 * the child notices its parent is gone: when the parent's end closes, this ends the process (exit
 * 4), so a parent killed without warning does not leave generators offering load to a relay nobody
 * measures.
 */
public final class StdinStartGate implements StartGate {
  /** The exit code of a child whose parent went away. */
  public static final int PARENT_GONE = 4;

  private final CompletableFuture<String> firstLine = new CompletableFuture<>();
  private final PrintStream out;
  private final Duration longestWait;

  private StdinStartGate(PrintStream out, Duration longestWait) {
    this.out = out;
    this.longestWait = longestWait;
  }

  /** Starts reading {@code in} (the parent's lines) at once; {@code out} takes the ready line. */
  public static StdinStartGate watch(InputStream in, PrintStream out, Duration longestWait) {
    StdinStartGate g = new StdinStartGate(out, longestWait);
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  // Only the first line means anything; later ones are ignored.
                  g.firstLine.complete(line);
                }
              } catch (IOException e) {
                // Same as end of stream: the parent is gone.
              }
              System.err.println("error: the parent process went away; stopping");
              System.err.flush();
              Runtime.getRuntime().halt(PARENT_GONE);
            },
            "ceiling-parent-watch");
    t.setDaemon(true);
    t.start();
    return g;
  }

  @Override
  public Duration longestWait() {
    return longestWait;
  }

  @Override
  public Instant awaitStart() throws GeneratorException {
    out.println(StartHandshake.READY);
    out.flush();
    String line;
    try {
      line = firstLine.get(longestWait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          String.format(
              Locale.ROOT,
              "ready, but no start instant came from the parent within %.1f s",
              longestWait.toMillis() / 1000.0));
    } catch (ExecutionException e) {
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          "cannot read the start instant from the parent: " + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          "interrupted while waiting for the start instant");
    }
    try {
      return StartHandshake.parseStartLine(line);
    } catch (IllegalArgumentException e) {
      throw new GeneratorException(GeneratorException.Kind.INFRASTRUCTURE, e.getMessage());
    }
  }
}
