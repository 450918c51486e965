package dev.ceiling.cli.command;

import picocli.CommandLine.Option;

/**
 * {@code --equivalence-margin DELTA}, shared by {@code experiment} and {@code sweep} (a picocli
 * mixin): declared with the plan, before any cell, so it enters the run's identity. {@code combine}
 * and {@code report} have no such option: they use the margin the halves recorded.
 */
final class EquivalenceMarginOption {
  @Option(
      names = "--equivalence-margin",
      paramLabel = "DELTA",
      description = {
        "Also ask whether the treatment's cost (control minus treatment in accepted/offered) is",
        "within +-DELTA at each rate: a TOST, Holm across rates, reading EQUIVALENT WITHIN DELTA,",
        "LIMITS or INCONCLUSIVE per rate. A fraction in (0, 1), e.g. 0.05; part of the run's",
        "identity (default: no equivalence question)."
      })
  Double margin;

  /** The range check, with the other options' problems. */
  OptionChecks check(OptionChecks checks) {
    if (margin != null && !(margin > 0 && margin < 1)) {
      checks.add(
          "--equivalence-margin must be a fraction of accepted/offered in (0, 1), e.g. 0.05, got "
              + margin);
    }
    return checks;
  }
}
