package dev.ceiling.verdict;

import java.util.List;
import java.util.Objects;

/**
 * The verdict's annotation of one cell, including report-only cells, so that no figure in a table
 * is ever shown without its problems and its steady flag.
 *
 * @param cell which cell
 * @param use evidence, excluded or report-only
 * @param acceptedOverOffered the cell's accepted/offered (copied for reading convenience)
 * @param steady whether |outstanding_delta| was within tolerance; where the arm has no queue
 *     reading, the client's reading ({@link ClientSteady}); null when neither was recorded
 * @param busy null when there is no busy reading, else whether the worker was busy
 * @param workerRateUsed true when the cell fed the worker-rate estimate
 * @param problems every problem found, excluding or not
 */
public record CellAssessment(
    CellRef cell,
    CellUse use,
    double acceptedOverOffered,
    Boolean steady,
    Boolean busy,
    boolean workerRateUsed,
    List<CellProblem> problems) {
  public CellAssessment {
    Objects.requireNonNull(cell, "cell must not be null");
    Objects.requireNonNull(use, "use must not be null");
    problems = List.copyOf(problems);
  }
}
