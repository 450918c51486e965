package dev.ceiling.experiment;

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
 */
public record SensitivityCell(
    SensitivityPlan.Cell planned,
    Cell cell,
    CellUse use,
    Boolean steady,
    Boolean busy,
    boolean ceilingUsed,
    List<CellProblem> problems,
    LinkCounters link,
    Double auditEvents,
    Double turnsPerEvent) {
  public SensitivityCell {
    Objects.requireNonNull(planned, "planned must not be null");
    Objects.requireNonNull(cell, "cell must not be null");
    Objects.requireNonNull(use, "use must not be null");
    problems = List.copyOf(problems);
    Objects.requireNonNull(link, "link must not be null");
  }
}
