package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.verdict.SplitReport;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * {@code split.json}: the split round's plan, written before the first cell, then rewritten with
 * the cells and the verdict when the round ends.
 *
 * @param schema always {@link #SCHEMA}
 * @param profile the relay profile's name
 * @param rig the relay as it ran, credentials redacted
 * @param identity the round's identity: the grid, duration, repeats per arm, order seed, the
 *     equivalence margin delta and the measurement settings, all fixed before the first cell
 * @param plan every planned cell, in run order
 * @param predictedWorkersCeilingPerS the relay's calibration of all its workers, or null
 * @param predictedLockCeilingPerS the relay's calibration of one lock, or null
 * @param startedAt when the plan was fixed
 * @param finishedAt when the round ended, or null while it runs
 * @param complete true when every planned cell was measured
 * @param incompleteReason why not, or null
 * @param cells the measured cells, in run order
 * @param verdict the split verdict of the cells measured, or null before the first cell
 */
public record SplitRoundReport(
    String schema,
    String profile,
    RigDescriptor rig,
    ExperimentIdentity identity,
    List<PlannedSplitCell> plan,
    Double predictedWorkersCeilingPerS,
    Double predictedLockCeilingPerS,
    Instant startedAt,
    Instant finishedAt,
    boolean complete,
    String incompleteReason,
    List<Cell> cells,
    SplitReport verdict) {

  /** The file's schema name. */
  public static final String SCHEMA = "ceiling-split/1";

  /**
   * One planned cell.
   *
   * @param sequence its place in the run
   * @param offeredPerS the total offered rate, events/s
   * @param repeat which repeat of the rate
   * @param design "one" (the whole offer to one community) or "split" (half to each of two)
   */
  public record PlannedSplitCell(int sequence, double offeredPerS, int repeat, String design) {}

  public SplitRoundReport {
    Objects.requireNonNull(identity, "identity must not be null");
    plan = List.copyOf(plan);
    cells = List.copyOf(cells);
  }

  /**
   * The round's report before its first cell: the whole plan, declared, started now.
   *
   * @param redactedRig the relay as it runs, credentials redacted
   */
  static SplitRoundReport planned(
      String profile,
      RigDescriptor redactedRig,
      ExperimentIdentity identity,
      List<PlannedSplitCell> plan,
      Double predictedWorkersCeilingPerS,
      Double predictedLockCeilingPerS) {
    return new SplitRoundReport(
        SCHEMA,
        profile,
        redactedRig,
        identity,
        plan,
        predictedWorkersCeilingPerS,
        predictedLockCeilingPerS,
        Instant.now(),
        null,
        false,
        "planned: no cell measured yet",
        List.of(),
        null);
  }

  /** The planned report with the round's end: when, whether complete, the cells and the verdict. */
  SplitRoundReport ended(
      Instant finished, boolean complete, String reason, List<Cell> measured, SplitReport judged) {
    return new SplitRoundReport(
        schema,
        profile,
        rig,
        identity,
        plan,
        predictedWorkersCeilingPerS,
        predictedLockCeilingPerS,
        startedAt,
        finished,
        complete,
        reason,
        measured,
        judged);
  }
}
