package dev.ceiling.cli.command;

import dev.ceiling.experiment.SweepOptions;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --identities N}, shared by {@code sweep}, {@code experiment} and {@code sensitivity} (a
 * picocli mixin); {@code experiment --design identities} takes a list of N, its grid.
 */
final class IdentitiesOption {
  @Option(
      names = "--identities",
      paramLabel = "N",
      split = ",",
      defaultValue = "" + SweepOptions.DEFAULT_IDENTITIES,
      description =
          "Signing keys per community, 1 to "
              + SweepOptions.MAX_IDENTITIES
              + ", the offer spread over them round-robin; part of the run's identity. A list"
              + " (10,100,500) is the grid of --design identities (default: ${DEFAULT-VALUE}).")
  List<Integer> values = List.of(SweepOptions.DEFAULT_IDENTITIES);

  /** The one N of a run that takes one. */
  int value() {
    return values.get(0);
  }

  /** The range check of a run that takes one N, with the other options' problems. */
  OptionChecks check(OptionChecks checks) {
    return check(checks, false);
  }

  /** The range check of each N; a list only when {@code grid}. */
  OptionChecks check(OptionChecks checks, boolean grid) {
    if (!grid && values.size() != 1) {
      checks.add(
          "--identities takes one number here; a list such as 10,100,500 is the grid of --design"
              + " identities, got "
              + values);
    }
    for (int n : values) {
      checks.between("--identities", n, 1, SweepOptions.MAX_IDENTITIES, "");
    }
    return checks;
  }
}
