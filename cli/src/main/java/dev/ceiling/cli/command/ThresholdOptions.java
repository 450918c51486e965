package dev.ceiling.cli.command;

import dev.ceiling.core.model.Checks;
import dev.ceiling.verdict.VerdictConfig;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The verdict thresholds a user may tighten, as flags: the only way to decide with anything but
 * Ceiling's defaults. A report file's stored thresholds never decide (a file carrying family alpha
 * 0.5 would otherwise pass anything); looser-than-sane values are refused here, before anything
 * runs.
 */
final class ThresholdOptions {
  @Option(
      names = "--family-alpha",
      paramLabel = "ALPHA",
      description =
          "Family-wise error across rates, at most "
              + VerdictConfig.MAX_FAMILY_ALPHA
              + " (default: Ceiling's, 0.05).")
  Double familyAlpha;

  @Option(
      names = "--min-headroom",
      paramLabel = "X",
      description =
          "Generator capacity over the offered rate a cell needs, at least "
              + VerdictConfig.MIN_MIN_HEADROOM
              + " (default: Ceiling's, 1.5).")
  Double minHeadroom;

  @Option(
      names = "--steady-tolerance",
      paramLabel = "FRACTION",
      description =
          "A cell is steady when its queue changed by at most this fraction of capacity, at most "
              + VerdictConfig.MAX_STEADY_TOLERANCE
              + " (default: Ceiling's, 0.05).")
  Double steadyTolerance;

  /**
   * The thresholds for a command that reads and writes {@code files}: every problem with either
   * reported at once, as one usage error on {@code cl}.
   */
  VerdictConfig orFail(OutputPaths files, CommandLine cl) {
    OptionChecks checks = new OptionChecks().files(files);
    VerdictConfig c = config(checks);
    checks.orFail(cl);
    return c;
  }

  /**
   * Ceiling's defaults with the flags given, or null after adding to {@code checks} a problem per
   * flag out of range (so a command can report them with its own).
   */
  VerdictConfig config(OptionChecks checks) {
    VerdictConfig d = VerdictConfig.defaults();
    Checks flags = new Checks();
    flags.require(
        familyAlpha == null || (familyAlpha > 0 && familyAlpha <= VerdictConfig.MAX_FAMILY_ALPHA),
        "--family-alpha must be > 0 and at most "
            + VerdictConfig.MAX_FAMILY_ALPHA
            + " (a looser family-wise error is not evidence), got "
            + familyAlpha);
    flags.require(
        minHeadroom == null
            || (minHeadroom >= VerdictConfig.MIN_MIN_HEADROOM && minHeadroom <= 1000),
        "--min-headroom must be in ["
            + VerdictConfig.MIN_MIN_HEADROOM
            + ", 1000] (less lets a generator-bound cell count as evidence), got "
            + minHeadroom);
    flags.require(
        steadyTolerance == null
            || (steadyTolerance > 0 && steadyTolerance <= VerdictConfig.MAX_STEADY_TOLERANCE),
        "--steady-tolerance must be > 0 and at most "
            + VerdictConfig.MAX_STEADY_TOLERANCE
            + " of the queue capacity, got "
            + steadyTolerance);
    if (!flags.ok()) {
      flags.problems().forEach(checks::add);
      return null;
    }
    // VerdictConfig (in verdict) has no builder: its seven fields in their declared order.
    return new VerdictConfig(
        familyAlpha == null ? d.familyAlpha() : familyAlpha,
        steadyTolerance == null ? d.steadyTolerance() : steadyTolerance,
        d.busyThreshold(),
        minHeadroom == null ? d.minHeadroom() : minHeadroom,
        d.minCellsPerArm(),
        d.minDifference(),
        d.kneeEpsilon());
  }
}
