package dev.ceiling.experiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ceiling.core.model.Cell;
import dev.ceiling.rig.proxy.LinkCounters;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CellUse;
import java.util.List;
import java.util.Objects;

/**
 * One measured cell of a delay sweep: the cell as the A/B sweep measures it, what the A/B's rules
 * make of it, and what crossed the swept link meanwhile.
 *
 * @param planned which cell of the plan (delay and repeat)
 * @param cell the measured cell; its sequence is the plan's, its repeat the repeat at this delay
 * @param use evidence or excluded, by every rule of the A/B
 * @param steady whether the audit backlog held level over the window, or null when unread
 * @param busy whether the worker was busy, or null when unread
 * @param ceilingUsed true when the cell's worker completion rate is a point of the fit: evidence,
 *     steady and busy, as for the A/B's worker rate
 * @param problems every problem the A/B's rules found, excluding or not
 * @param link what crossed the swept link from just before the cell to the end of the drain after
 *     its grace period (the relay idle at both readings)
 * @param auditEvents audit entries completed over the same span (the relay's audit_log_count), or
 *     null when unread
 * @param turnsPerEvent wire turns per audit entry over that span, or null without entries
 * @param ceilingFrom {@link CeilingSource#CLIENT} ("client" in the file) when the relay maps no
 *     worker metric, so the cell's ceiling for the fit is its client-side one ({@code
 *     clientCeilingPerS}) and {@code ceilingUsed} means that one is a point of the fit; null (left
 *     out of the JSON) where the worker's rate is the ceiling, as in every file written before this
 *     field
 * @param clientCeilingPerS the client-side ceiling ({@code ClientSteady.ceilingPerS}: the accepted
 *     rate of a cell steady and saturated from the client), or null when not read or on a relay
 *     with a worker metric
 * @param okTrueAnswers OK-true answers to every slot sent over the same span as {@code link} (the
 *     warm-up's and the window's), the wire count's denominator where there is no audit count; null
 *     when the relay has one or the cell's counts cannot show them all
 * @param turnsPerOkTrue wire turns per OK-true answer over that span, or null without them
 * @param notUsed why a cell of a relay without a worker metric is not a point of the fit, in the
 *     client's terms ("not saturated from the client", ...), or null (used, or a worker metric)
 * @param latency its latency cell, or null
 * @param pointRamp under a plan's point ramp ({@link DelaySweepPlan.PointRamp}), the ramp measured
 *     at the cell's delay, whose ceiling is the cell's; {@code cell} is then the step that ceiling
 *     was read from (the last step when there is none), and {@code link} spans every step. Null
 *     (left out of the JSON) for a cell of one offer
 */
public record DelaySweepCell(
    DelaySweepPlan.Cell planned,
    Cell cell,
    CellUse use,
    Boolean steady,
    Boolean busy,
    boolean ceilingUsed,
    List<CellProblem> problems,
    LinkCounters link,
    Double auditEvents,
    Double turnsPerEvent,
    @JsonInclude(JsonInclude.Include.NON_NULL) CeilingSource ceilingFrom,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double clientCeilingPerS,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double okTrueAnswers,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double turnsPerOkTrue,
    @JsonInclude(JsonInclude.Include.NON_NULL) String notUsed,
    @JsonInclude(JsonInclude.Include.NON_NULL) LatencyCell latency,
    @JsonInclude(JsonInclude.Include.NON_NULL) CeilingRamp pointRamp) {

  /**
   * A cell's fields by name; the client's reading ({@code ceilingFrom} to {@code notUsed}) and the
   * latency cell default to null (a worker-metric cell without a latency slope).
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder primed with this cell's fields. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.planned = planned;
    b.cell = cell;
    b.use = use;
    b.steady = steady;
    b.busy = busy;
    b.ceilingUsed = ceilingUsed;
    b.problems = problems;
    b.link = link;
    b.auditEvents = auditEvents;
    b.turnsPerEvent = turnsPerEvent;
    b.ceilingFrom = ceilingFrom;
    b.clientCeilingPerS = clientCeilingPerS;
    b.okTrueAnswers = okTrueAnswers;
    b.turnsPerOkTrue = turnsPerOkTrue;
    b.notUsed = notUsed;
    b.latency = latency;
    b.pointRamp = pointRamp;
    return b;
  }

  /** This cell with its latency cell. */
  public DelaySweepCell withLatency(LatencyCell l) {
    return toBuilder().latency(l).build();
  }

  /** Fluent, by name; {@link #build()} checks the fields (the record's constructor). */
  public static final class Builder {
    private DelaySweepPlan.Cell planned;
    private Cell cell;
    private CellUse use;
    private Boolean steady;
    private Boolean busy;
    private boolean ceilingUsed;
    private List<CellProblem> problems;
    private LinkCounters link;
    private Double auditEvents;
    private Double turnsPerEvent;
    private CeilingSource ceilingFrom;
    private Double clientCeilingPerS;
    private Double okTrueAnswers;
    private Double turnsPerOkTrue;
    private String notUsed;
    private LatencyCell latency;
    private CeilingRamp pointRamp;

    private Builder() {}

    public Builder planned(DelaySweepPlan.Cell value) {
      this.planned = value;
      return this;
    }

    public Builder cell(Cell value) {
      this.cell = value;
      return this;
    }

    public Builder use(CellUse value) {
      this.use = value;
      return this;
    }

    public Builder steady(Boolean value) {
      this.steady = value;
      return this;
    }

    public Builder busy(Boolean value) {
      this.busy = value;
      return this;
    }

    public Builder ceilingUsed(boolean value) {
      this.ceilingUsed = value;
      return this;
    }

    public Builder problems(List<CellProblem> value) {
      this.problems = value;
      return this;
    }

    public Builder link(LinkCounters value) {
      this.link = value;
      return this;
    }

    public Builder auditEvents(Double value) {
      this.auditEvents = value;
      return this;
    }

    public Builder turnsPerEvent(Double value) {
      this.turnsPerEvent = value;
      return this;
    }

    public Builder ceilingFrom(CeilingSource value) {
      this.ceilingFrom = value;
      return this;
    }

    public Builder clientCeilingPerS(Double value) {
      this.clientCeilingPerS = value;
      return this;
    }

    public Builder okTrueAnswers(Double value) {
      this.okTrueAnswers = value;
      return this;
    }

    public Builder turnsPerOkTrue(Double value) {
      this.turnsPerOkTrue = value;
      return this;
    }

    public Builder notUsed(String value) {
      this.notUsed = value;
      return this;
    }

    public Builder latency(LatencyCell value) {
      this.latency = value;
      return this;
    }

    public Builder pointRamp(CeilingRamp value) {
      this.pointRamp = value;
      return this;
    }

    public DelaySweepCell build() {
      return new DelaySweepCell(
          planned,
          cell,
          use,
          steady,
          busy,
          ceilingUsed,
          problems,
          link,
          auditEvents,
          turnsPerEvent,
          ceilingFrom,
          clientCeilingPerS,
          okTrueAnswers,
          turnsPerOkTrue,
          notUsed,
          latency,
          pointRamp);
    }
  }

  /** True when this cell's ceiling is the client-side one (its relay maps no worker metric). */
  public boolean ceilingFromClient() {
    return ceilingFrom == CeilingSource.CLIENT;
  }

  /** The ceiling the fit uses for this cell: the client's or the worker's, events/s; or null. */
  public Double ceilingPerS() {
    return ceilingFromClient() ? clientCeilingPerS : cell.auditCompletedPerS();
  }

  public DelaySweepCell {
    Objects.requireNonNull(planned, "planned must not be null");
    Objects.requireNonNull(cell, "cell must not be null");
    Objects.requireNonNull(use, "use must not be null");
    problems = List.copyOf(problems);
    Objects.requireNonNull(link, "link must not be null");
  }
}
