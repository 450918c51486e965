package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;
import java.util.Locale;

/**
 * The verdict's tunable thresholds. Immutable and thread-safe; validated on construction, with
 * every broken rule reported at once.
 *
 * @param familyAlpha the family-wise error rate across all comparable rates, in (0, 0.5]; default
 *     0.05
 * @param steadyTolerance a cell is steady when |outstanding_delta| &lt;= this fraction of the queue
 *     capacity, in (0, 1); default 0.05
 * @param busyThreshold a cell's worker is busy when audit_busy_fraction &gt;= this, in (0, 1];
 *     default 0.95
 * @param minHeadroom the generator's capacity over the offered rate must be at least this, &gt;= 1;
 *     default 1.5
 * @param minCellsPerArm evidence cells each arm needs at a rate for that rate to be comparable,
 *     &gt;= 2 (a variance needs two); default 2
 * @param minDifference the smallest control-minus-treatment difference in accepted/offered that
 *     counts as separation (the one-sided test is against this shift), in [0, 1); default 0, the
 *     seed's contract
 * @param kneeEpsilon a rate is "below" when the arm's accepted/offered upper bound is under 1 -
 *     this, in (0, 1); default 0.02; report-only
 */
public record VerdictConfig(
    double familyAlpha,
    double steadyTolerance,
    double busyThreshold,
    double minHeadroom,
    int minCellsPerArm,
    double minDifference,
    double kneeEpsilon) {

  /**
   * The loosest family-wise alpha a command accepts by flag. The record itself allows up to 0.5 so
   * that a file carrying a looser one can still be read, shown and overruled.
   */
  public static final double MAX_FAMILY_ALPHA = 0.1;

  /** The smallest generator headroom a command accepts by flag. */
  public static final double MIN_MIN_HEADROOM = 1.5;

  /** The loosest steady tolerance (fraction of queue capacity) a command accepts by flag. */
  public static final double MAX_STEADY_TOLERANCE = 0.1;

  public VerdictConfig {
    new Checks()
        .require(
            familyAlpha > 0 && familyAlpha <= 0.5,
            "family_alpha must be in (0, 0.5], got " + familyAlpha)
        .require(
            steadyTolerance > 0 && steadyTolerance < 1,
            "steady_tolerance must be in (0, 1), got " + steadyTolerance)
        .require(
            busyThreshold > 0 && busyThreshold <= 1,
            "busy_threshold must be in (0, 1], got " + busyThreshold)
        .require(
            minHeadroom >= 1 && !Double.isInfinite(minHeadroom),
            "min_headroom must be a finite number >= 1, got " + minHeadroom)
        .require(minCellsPerArm >= 2, "min_cells_per_arm must be >= 2, got " + minCellsPerArm)
        .require(
            minDifference >= 0 && minDifference < 1,
            "min_difference must be in [0, 1), got " + minDifference)
        .require(
            kneeEpsilon > 0 && kneeEpsilon < 1,
            "knee_epsilon must be in (0, 1), got " + kneeEpsilon)
        .orThrow();
  }

  /** The defaults: alpha 0.05, tolerance 5% of capacity, busy 0.95, headroom 1.5x. */
  public static VerdictConfig defaults() {
    return new VerdictConfig(0.05, 0.05, 0.95, 1.5, 2, 0.0, 0.02);
  }

  /** True when {@code c} is Ceiling's defaults. (Static: a getter would become a JSON field.) */
  public static boolean isDefault(VerdictConfig c) {
    return c.equals(defaults());
  }

  /** One line, the same in every Locale. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "family_alpha=%s steady_tolerance=%s busy_threshold=%s min_headroom=%s"
            + " min_cells_per_arm=%d min_difference=%s knee_epsilon=%s",
        familyAlpha,
        steadyTolerance,
        busyThreshold,
        minHeadroom,
        minCellsPerArm,
        minDifference,
        kneeEpsilon);
  }
}
