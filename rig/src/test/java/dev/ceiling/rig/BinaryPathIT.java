package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code binary_path} naming a FIFO: hashing it would open it and block until a writer came, i.e.
 * forever. {@code up} must refuse it at once, naming it, before any relay starts. The partner is
 * the same profile with a regular file, which is digested and started.
 */
class BinaryPathIT {
  @TempDir Path dir;

  private RelayProfile profile(Path binary, int port) throws RigException {
    String json =
        Fakes.profileJson("ok", port)
            .replace(
                "\"queue_capacity\": 10",
                "\"queue_capacity\": 10, \"binary_path\": \"" + binary + "\"");
    return ProfileReader.read(json, "binary-profile", dir);
  }

  @Test
  void aFifoIsRefusedByNameBeforeAnythingStarts() throws Exception {
    Path fifo = dir.resolve("relay.fifo");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mk.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(mk.exitValue()).isZero();
    Path state = dir.resolve("state-fifo");
    assertThatThrownBy(() -> Rig.up(Fakes.options(profile(fifo, Fakes.freePort()), state)))
        .isInstanceOfSatisfying(
            RigException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(RigException.Kind.BAD_INPUT);
              assertThat(e.getMessage())
                  .contains("binary_path " + fifo)
                  .contains("not a regular file or directory");
            });
    assertThat(state.resolve("relay.pid.json")).doesNotExist();

    // Partner: a regular file is digested and the relay starts.
    Path regular = Files.writeString(dir.resolve("relay.bin"), "relay build 1");
    try (RigHandle h =
        Rig.up(Fakes.options(profile(regular, Fakes.freePort()), dir.resolve("state-file")))) {
      assertThat(h.descriptor().relayBinaryDigest()).isNotBlank();
    }
  }
}
