package dev.ceiling.cli.command;

import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.generator.SourceAddresses;
import java.net.InetAddress;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --source-addresses}, shared by {@code sweep} and {@code experiment} (a picocli mixin):
 * each cell's connections bound round-robin to M loopback source addresses, so the relay sees M
 * clients, as in production, and a per-IP limit meets M addresses instead of one.
 */
final class SourceAddressesOption {
  @Option(
      names = SourceAddressSpec.OPTION,
      paramLabel = "ADDRESSES",
      description = {
        "Bind each cell's connections round-robin to these loopback source addresses, a comma",
        "list of addresses and A-B ranges, e.g. 127.0.0.2-127.0.0.65 (all of 127.0.0.0/8 is",
        "loopback on Linux); each address gets a connection of its own (the connections per",
        "target rise to M when fewer). M is part of the run's identity (default: the OS",
        "chooses, one address on loopback)."
      })
  String spec;

  private List<InetAddress> addresses = List.of();

  /**
   * Parses the value and checks the generator's rules for addresses, and that the generator runs in
   * this process, with the other problems.
   */
  OptionChecks check(OptionChecks checks, GeneratorsOption generators) {
    if (spec == null) {
      return checks;
    }
    addresses = SourceAddressSpec.parse(spec, checks.all());
    // The connections are not known here: the rules that need them are met by apply().
    for (String p : SourceAddresses.problems(addresses, null)) {
      checks.add(SourceAddressSpec.OPTION + ": " + p);
    }
    if (generators.generators > 1) {
      checks.add(
          "--source-addresses needs the generator in this process; it cannot be combined with"
              + " --generators "
              + generators.generators);
    }
    return checks;
  }

  /** The options with the addresses, and at least one connection per address per target. */
  SweepOptions apply(SweepOptions o) {
    if (addresses.isEmpty()) {
      return o;
    }
    return o.withConnectionsPerTarget(Math.max(o.connectionsPerTarget(), addresses.size()))
        .withSourceAddresses(addresses);
  }
}
