package dev.ceiling.cli.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sweep} applies {@code rig up}'s loopback rule to the descriptor it is given (a file anyone
 * can edit): a crafted one pointing elsewhere is refused with exit 2 before any connection. The
 * partner is the same descriptor with its loopback URLs, which gets past the check (and then fails
 * for its own reason: nothing listens on its port).
 */
class LoopbackContractTest {
  @TempDir Path dir;

  @Test
  void sweepRefusesADescriptorThatPointsAwayFromLoopback() throws Exception {
    String golden;
    try (InputStream in = getClass().getResourceAsStream("rig-descriptor.json")) {
      golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Path crafted = dir.resolve("crafted.json");
    Files.writeString(crafted, golden.replace("127.0.0.1", "10.1.2.3"));
    Cli.Outcome o = sweep(crafted);
    Cli.assertUsageError(o, "--rig");
    assertThat(o.err()).contains("metrics_url must point at loopback").contains("10.1.2.3");

    Path honest = dir.resolve("honest.json");
    Files.writeString(honest, golden);
    Cli.Outcome h = sweep(honest);
    assertThat(h.err()).as(h.toString()).doesNotContain("loopback");
  }

  private Cli.Outcome sweep(Path descriptor) {
    return Cli.run(
        "sweep",
        "--rig",
        descriptor.toString(),
        "--json",
        dir.resolve("half.json").toString(),
        "--rates",
        "10",
        "--repeats",
        "1",
        "--duration",
        "1",
        "--warmup",
        "0");
  }

  /**
   * A name that resolves to loopback (a hosts alias such as {@code vm}) is refused by one rule
   * everywhere, each time as one {@code error:} line naming the name, never an exception's class.
   * The partner is the same profile and descriptor with 127.0.0.1, which the rule lets through.
   */
  @Test
  void aHostsAliasIsOneClearLineInRigUpAndSweep() throws Exception {
    String profile;
    try (InputStream in =
        getClass().getResourceAsStream("/dev/ceiling/rig/profiles/reference.json")) {
      profile = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Path aliased = dir.resolve("aliased.json");
    Files.writeString(aliased, profile.replace("ws://127.0.0.1:", "ws://vm:"));
    Cli.Outcome up =
        Cli.run(
            "rig",
            "up",
            "--profile",
            aliased.toString(),
            "--state-dir",
            dir.resolve("s").toString());
    Cli.assertUsageError(up, "ws://vm:");
    assertThat(up.err()).contains("must point at loopback").doesNotContain("Exception");
    assertThat(dir.resolve("s").resolve("relay.pid.json")).doesNotExist();

    String golden;
    try (InputStream in = getClass().getResourceAsStream("rig-descriptor.json")) {
      golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Path descriptor = dir.resolve("vm.json");
    Files.writeString(descriptor, golden.replace("ws://127.0.0.1:", "ws://vm:"));
    Cli.Outcome sweep = sweep(descriptor);
    Cli.assertUsageError(sweep, "ws://vm:");
    assertThat(sweep.err()).doesNotContain("Exception");

    // Partner: the unaliased descriptor is not refused by the rule.
    Path honest = dir.resolve("honest.json");
    Files.writeString(honest, golden);
    assertThat(sweep(honest).err()).doesNotContain("loopback");
  }
}
