package dev.ceiling.experiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.verdict.CountCheck;
import dev.ceiling.verdict.SensitivityFit;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * {@code sensitivity.json}: a delay sweep's plan, every measured cell with what the A/B's rules
 * made of it, the points, the fit, the test against the declared count, the wire count and the
 * answer. Rewritten after every cell, so nothing measured is lost when a later cell fails; a resume
 * ({@link DelaySweepOptions.Builder#resume}) adds its cells to it and says so in {@code sessions}.
 *
 * @param schema always {@link #SCHEMA}
 * @param profile the relay profile's name
 * @param arm the arm the relay ran (the profile's treatment arm: the path under study is on)
 * @param rig the relay's descriptor, credentials redacted
 * @param plan the plan, fixed before the first cell
 * @param measurement how every cell is measured (warm-up, grace, send-lag bound, signing identities
 *     per community), fixed with the plan
 * @param startedAt when the first cell started
 * @param finishedAt when the sweep ended, or null while it runs
 * @param complete true when every planned cell was measured
 * @param incompleteReason why not, or null
 * @param sessions the sessions whose cells are in the file: one, or one more per resume (null in a
 *     file written before sessions were recorded, which had one)
 * @param cells the measured cells, in run order
 * @param points one per delay of the plan, in delay order
 * @param fit the line 1 / C = k d + c over the cells used, or null when it could not be fitted
 * @param fitProblem why there is no fit, or null
 * @param countCheck k against the declared count, or null when none was declared or no fit
 * @param wireTurnsPerEvent wire turns over audit entries summed over every cell used: the proxy's
 *     own count of round trips per event, or null
 * @param established true when the sweep is complete, the line holds, and k is consistent with the
 *     declared count (when one was declared)
 * @param answer the outcome in one sentence, leading with k and the wire count
 * @param ceilingFrom {@link CeilingSource#CLIENT} ("client" in the file) when the fit's ceilings
 *     are the cells' client-side ones (the relay maps no worker metric); null (left out of the
 *     JSON) where they are the worker's rates, as in every file written before this field
 * @param wireTurnsPerOkTrue wire turns over OK-true answers summed over every cell used, where the
 *     relay has no audit counter ({@link DelaySweepCell#okTrueAnswers}); null otherwise
 * @param latencySlope the latency slope and the ceiling's slope read against 0, when the plan
 *     declares a latency offer; null (left out of the JSON) otherwise. With it, the declared count
 *     is tested on the latency slope and {@code established} follows that slope
 * @param whatIf the checked what-if at the plan's holdout delay ({@code --at}), when it has one;
 *     null (left out of the JSON) otherwise. An answer beside the sweep's, not part of {@code
 *     established}: a holdout OUTSIDE the prediction says the line does not reach that far, not
 *     that the count on the grid is wrong
 */
public record DelaySweepReport(
    String schema,
    String profile,
    String arm,
    RigDescriptor rig,
    DelaySweepPlan plan,
    MeasurementSettings measurement,
    Instant startedAt,
    Instant finishedAt,
    boolean complete,
    String incompleteReason,
    List<DelaySweepSession> sessions,
    List<DelaySweepCell> cells,
    List<DelaySweepPoint> points,
    SensitivityFit fit,
    String fitProblem,
    CountCheck countCheck,
    Double wireTurnsPerEvent,
    boolean established,
    String answer,
    @JsonInclude(JsonInclude.Include.NON_NULL) CeilingSource ceilingFrom,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double wireTurnsPerOkTrue,
    @JsonInclude(JsonInclude.Include.NON_NULL) LatencySlope latencySlope,
    @JsonInclude(JsonInclude.Include.NON_NULL) DelaySweepWhatIf whatIf) {

  /** A report without a latency slope (its plan declares no latency offer). */
  public DelaySweepReport(
      String schema,
      String profile,
      String arm,
      RigDescriptor rig,
      DelaySweepPlan plan,
      MeasurementSettings measurement,
      Instant startedAt,
      Instant finishedAt,
      boolean complete,
      String incompleteReason,
      List<DelaySweepSession> sessions,
      List<DelaySweepCell> cells,
      List<DelaySweepPoint> points,
      SensitivityFit fit,
      String fitProblem,
      CountCheck countCheck,
      Double wireTurnsPerEvent,
      boolean established,
      String answer,
      CeilingSource ceilingFrom,
      Double wireTurnsPerOkTrue) {
    this(
        schema,
        profile,
        arm,
        rig,
        plan,
        measurement,
        startedAt,
        finishedAt,
        complete,
        incompleteReason,
        sessions,
        cells,
        points,
        fit,
        fitProblem,
        countCheck,
        wireTurnsPerEvent,
        established,
        answer,
        ceilingFrom,
        wireTurnsPerOkTrue,
        null,
        null);
  }

  /** The document's schema name and version. */
  public static final String SCHEMA = "ceiling-sensitivity/1";

  /** A report whose ceilings are the worker's rates: the fields added for the client's null. */
  public DelaySweepReport(
      String schema,
      String profile,
      String arm,
      RigDescriptor rig,
      DelaySweepPlan plan,
      MeasurementSettings measurement,
      Instant startedAt,
      Instant finishedAt,
      boolean complete,
      String incompleteReason,
      List<DelaySweepSession> sessions,
      List<DelaySweepCell> cells,
      List<DelaySweepPoint> points,
      SensitivityFit fit,
      String fitProblem,
      CountCheck countCheck,
      Double wireTurnsPerEvent,
      boolean established,
      String answer) {
    this(
        schema,
        profile,
        arm,
        rig,
        plan,
        measurement,
        startedAt,
        finishedAt,
        complete,
        incompleteReason,
        sessions,
        cells,
        points,
        fit,
        fitProblem,
        countCheck,
        wireTurnsPerEvent,
        established,
        answer,
        null,
        null,
        null,
        null);
  }

  public DelaySweepReport {
    Objects.requireNonNull(plan, "plan must not be null");
    Objects.requireNonNull(measurement, "measurement must not be null");
    sessions = sessions == null ? null : List.copyOf(sessions);
    cells = List.copyOf(cells);
    points = List.copyOf(points);
    Objects.requireNonNull(answer, "answer must not be null");
    // With a latency slope the declared count is the latency slope's, and the ceiling's slope is
    // an answer whatever it reads ("not what bounds it" included); without one, the ceiling's.
    boolean lineHolds =
        latencySlope != null ? latencySlope.established() : fit != null && fit.established();
    if (established && (!lineHolds || !complete)) {
      throw new IllegalArgumentException(
          "established needs a complete sweep and an established fit");
    }
  }
}
