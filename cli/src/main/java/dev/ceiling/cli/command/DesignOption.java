package dev.ceiling.cli.command;

import java.util.List;
import picocli.CommandLine.Option;

/** {@code experiment --design}: which question the run asks (a picocli mixin), and its rules. */
final class DesignOption {
  /** Which question the run asks. */
  enum Design {
    /** The A/B: does the treatment's code path limit ingest? */
    ab,
    /** The split round: does splitting one community's offer over two raise the ceiling? */
    split,
    /** The defaults round: at stock limits, from how many identities does the limiter let go? */
    identities
  }

  @Option(
      names = "--design",
      paramLabel = "ab|split|identities",
      defaultValue = "ab",
      description = {
        "ab (default): the A/B of the treatment arm against the control arm.",
        "split: one relay with the path on, pairs of cells at each total rate, one community"
            + " against half to each of two; reads SPLIT RAISES THE CEILING, EQUIVALENT WITHIN DELTA"
            + " (--equivalence-margin, default 0.05), INCONCLUSIVE or LOCK NOT MEASURABLE (the"
            + " workers bind first in both arms). Writes split.json. 'auto' rates are 1.5 and 3"
            + " times one lock's predicted ceiling. Give the relay's shape with --param, e.g."
            + " --param audit_workers=4 --param audit_lock=per-community.",
        "identities: the defaults round at the profile's own limiter settings (e.g. --profile"
            + " reference-defaults): one rate (--rates with one number, or 'auto': 1.5 times the top"
            + " of the relay's predicted range), the offer spread over N keys for each N of"
            + " --identities 10,100,500; per N, whether the limiter or the relay's own ceiling"
            + " binds, and from which N the limiter lets go. Writes identities.json."
      })
  Design design = Design.ab;

  boolean is(Design d) {
    return design == d;
  }

  /** What the design cannot be combined with, with the other options' problems. */
  OptionChecks check(
      OptionChecks checks, boolean twoCommunity, boolean resume, List<Double> fixedRates) {
    if (design != Design.ab && twoCommunity) {
      checks.add(
          "--two-community is the A/B's report-only cells; --design "
              + design
              + (design == Design.split ? " measures them" : " has none"));
    }
    if (design != Design.ab && resume) {
      checks.add("--resume continues an A/B; a --design " + design + " round is not resumed");
    }
    if (design == Design.identities && fixedRates != null && fixedRates.size() != 1) {
      checks.add(
          "--rates: --design identities offers one rate (or 'auto'), got " + fixedRates.size());
    }
    return checks;
  }
}
