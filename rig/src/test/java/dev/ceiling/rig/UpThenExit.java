package dev.ceiling.rig;

import dev.ceiling.core.json.Json;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A test's separate process: brings a relay up with {@link Rig#up}, prints the descriptor and
 * exits, as {@code ceiling rig up} does (the CLI's own tests run that command). Arguments: profile
 * file, arm, state directory, ready timeout in seconds.
 */
final class UpThenExit {
  private UpThenExit() {}

  public static void main(String[] args) throws Exception {
    RelayProfile p = RelayProfile.resolve(args[0]);
    UpOptions o =
        UpOptions.of(p, args[1], Path.of(args[2]))
            .withTimeouts(
                Duration.ofSeconds(Long.parseLong(args[3])),
                UpOptions.DEFAULT_PORT_WAIT,
                UpOptions.DEFAULT_STOP_TIMEOUT);
    // Deliberately not closed: the relay must outlive this process.
    @SuppressWarnings("resource")
    RigHandle h = Rig.up(o);
    System.out.print(Json.write(h.descriptor()));
    System.out.flush();
    System.exit(0);
  }
}
