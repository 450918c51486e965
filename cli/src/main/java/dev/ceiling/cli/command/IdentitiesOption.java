package dev.ceiling.cli.command;

import dev.ceiling.experiment.SweepOptions;
import picocli.CommandLine.Option;

/**
 * {@code --identities N}, shared by {@code sweep}, {@code experiment} and {@code sensitivity} (a
 * picocli mixin).
 */
final class IdentitiesOption {
  @Option(
      names = "--identities",
      paramLabel = "N",
      defaultValue = "" + SweepOptions.DEFAULT_IDENTITIES,
      description =
          "Signing keys per community, 1 to "
              + SweepOptions.MAX_IDENTITIES
              + ", the offer spread over them round-robin; part of the run's identity (default:"
              + " ${DEFAULT-VALUE}).")
  int identities;

  /** The range check, with the other options' problems. */
  OptionChecks check(OptionChecks checks) {
    return checks.between("--identities", identities, 1, SweepOptions.MAX_IDENTITIES, "");
  }
}
