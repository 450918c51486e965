package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.verdict.AdmissionPlan;
import dev.ceiling.verdict.IdentitiesReport;
import java.time.Instant;
import java.util.List;

/**
 * {@code identities.json}: the defaults round's plan, written before the first cell, then rewritten
 * with the cells and the verdict when the round ends.
 *
 * @param schema always {@link #SCHEMA}
 * @param profile the relay profile's name
 * @param rig the relay as it ran (its limiter settings are the stock ones under test), redacted
 * @param offeredPerS the one offered rate, events/s
 * @param identities the grid of N, ascending
 * @param repeats cells per N
 * @param durationS each cell's window, seconds
 * @param orderSeed the seed of the order of N within each repeat, or null for ascending
 * @param measurement the cells' measurement settings but for N (identities is null here; each cell
 *     carries its N)
 * @param plan every planned cell, in run order
 * @param predictedCeilingPerS the relay's predicted ceiling of its own (all workers), or null
 * @param startedAt when the plan was fixed
 * @param finishedAt when the round ended, or null while it runs
 * @param complete true when every planned cell was measured
 * @param incompleteReason why not, or null
 * @param cells the measured cells, in run order
 * @param verdict the answer from the cells measured, or null before the first
 * @param admission the profile's declared admission limits that apply to the offer, what each cell
 *     covers of their longest window, and the crossover predicted from them, fixed before the first
 *     cell
 */
public record IdentitiesRoundReport(
    String schema,
    String profile,
    RigDescriptor rig,
    double offeredPerS,
    List<Integer> identities,
    int repeats,
    double durationS,
    Long orderSeed,
    MeasurementSettings measurement,
    List<PlannedIdentitiesCell> plan,
    Double predictedCeilingPerS,
    Instant startedAt,
    Instant finishedAt,
    boolean complete,
    String incompleteReason,
    List<MeasuredIdentitiesCell> cells,
    IdentitiesReport verdict,
    AdmissionPlan admission) {

  /** The file's schema name. */
  public static final String SCHEMA = "ceiling-identities/1";

  /**
   * One planned cell.
   *
   * @param sequence its place in the run
   * @param identities N, the signing keys the offer is spread over
   * @param repeat which repeat of N
   */
  public record PlannedIdentitiesCell(int sequence, int identities, int repeat) {}

  /**
   * One measured cell.
   *
   * @param identities N
   * @param cell the cell, numbered by its place in the run
   */
  public record MeasuredIdentitiesCell(int identities, Cell cell) {}

  public IdentitiesRoundReport {
    identities = List.copyOf(identities);
    plan = List.copyOf(plan);
    cells = List.copyOf(cells);
  }
}
