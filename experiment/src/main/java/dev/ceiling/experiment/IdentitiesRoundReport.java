package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.verdict.AdmissionPlan;
import dev.ceiling.verdict.CellProblem;
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
   * @param excludedBy the problem for which the verdict left the cell out of its row, or null when
   *     the row used it
   */
  public record MeasuredIdentitiesCell(int identities, Cell cell, CellProblem excludedBy) {}

  public IdentitiesRoundReport {
    identities = List.copyOf(identities);
    plan = List.copyOf(plan);
    cells = List.copyOf(cells);
  }

  /** The report before its first cell: the plan, declared; nothing measured, no verdict. */
  static Planned planned() {
    return new Planned();
  }

  /** This report with the cells measured so far, their verdict, and how the round stands. */
  IdentitiesRoundReport measured(
      Instant finishedAt,
      boolean complete,
      String incompleteReason,
      List<MeasuredIdentitiesCell> cells,
      IdentitiesReport verdict) {
    return new IdentitiesRoundReport(
        schema,
        profile,
        rig,
        offeredPerS,
        identities,
        repeats,
        durationS,
        orderSeed,
        measurement,
        plan,
        predictedCeilingPerS,
        startedAt,
        finishedAt,
        complete,
        incompleteReason,
        cells,
        verdict,
        admission);
  }

  /** The plan's fields by name, fixed before the first cell; not thread-safe. */
  static final class Planned {
    private String profile;
    private RigDescriptor rig;
    private double offeredPerS;
    private List<Integer> identities;
    private int repeats;
    private double durationS;
    private Long orderSeed;
    private MeasurementSettings measurement;
    private List<PlannedIdentitiesCell> plan;
    private Double predictedCeilingPerS;
    private AdmissionPlan admission;

    private Planned() {}

    Planned profile(String name) {
      this.profile = name;
      return this;
    }

    Planned rig(RigDescriptor redacted) {
      this.rig = redacted;
      return this;
    }

    Planned offeredPerS(double perS) {
      this.offeredPerS = perS;
      return this;
    }

    Planned identities(List<Integer> grid) {
      this.identities = grid;
      return this;
    }

    Planned repeats(int n) {
      this.repeats = n;
      return this;
    }

    Planned durationS(double s) {
      this.durationS = s;
      return this;
    }

    Planned orderSeed(Long seed) {
      this.orderSeed = seed;
      return this;
    }

    Planned measurement(MeasurementSettings settings) {
      this.measurement = settings;
      return this;
    }

    Planned plan(List<PlannedIdentitiesCell> cells) {
      this.plan = cells;
      return this;
    }

    Planned predictedCeilingPerS(Double perS) {
      this.predictedCeilingPerS = perS;
      return this;
    }

    Planned admission(AdmissionPlan declared) {
      this.admission = declared;
      return this;
    }

    /** The report as it stands before the first cell, started now. */
    IdentitiesRoundReport build() {
      return new IdentitiesRoundReport(
          SCHEMA,
          profile,
          rig,
          offeredPerS,
          identities,
          repeats,
          durationS,
          orderSeed,
          measurement,
          plan,
          predictedCeilingPerS,
          Instant.now(),
          null,
          false,
          null,
          List.of(),
          null,
          admission);
    }
  }
}
