package dev.ceiling.verdict;

import java.util.List;
import java.util.Objects;

/**
 * The verdict on one dataset: whether it establishes that the treatment limits ingest, and
 * everything that decision rests on. Computed by {@link Verdict}; formatters only read it.
 *
 * @param established true exactly when {@code failures} is empty
 * @param controlMarker {@link #CONTROL_RAN} or {@link #CONTROL_SKIPPED}: an explicit marker, so a
 *     null result is never mistaken for a control that never ran
 * @param failures every reason the run is not established (empty when established)
 * @param rates one row per grid rate, ascending
 * @param excluded cells kept out of the evidence, each with every reason
 * @param fatal problems that fail the run outright
 * @param workerRate the worker's completion rate, or null when no cell was steady and busy
 * @param knee the treatment arm's knee bracket, report-only
 * @param notes caveats that hold for this run (always including the masked-ceiling note)
 * @param method the statistical method in one paragraph, with the figures used
 * @param config the thresholds the verdict used, so it can be recomputed
 * @param comparableRates m, the number of comparable rates the correction spans
 * @param cells every cell's annotation (evidence, excluded or report-only), in half-run order
 * @param clientSideEvidence true when the relay exposes no metrics and the contamination evidence
 *     is what the generator saw (a pass is then labelled {@link #CLIENT_SIDE_PASS})
 * @param equivalence the answer to the identity's predeclared equivalence question (is the
 *     treatment's cost within +-delta at each rate?), or null when the identity declares no margin;
 *     it never changes {@code established}
 */
public record VerdictReport(
    boolean established,
    String controlMarker,
    List<Failure> failures,
    List<RateRow> rates,
    List<ExcludedCell> excluded,
    List<FatalProblem> fatal,
    WorkerRate workerRate,
    KneeBracket knee,
    List<String> notes,
    String method,
    VerdictConfig config,
    int comparableRates,
    List<CellAssessment> cells,
    boolean clientSideEvidence,
    EquivalenceReport equivalence) {

  /** A verdict that answers no equivalence question. */
  public VerdictReport(
      boolean established,
      String controlMarker,
      List<Failure> failures,
      List<RateRow> rates,
      List<ExcludedCell> excluded,
      List<FatalProblem> fatal,
      WorkerRate workerRate,
      KneeBracket knee,
      List<String> notes,
      String method,
      VerdictConfig config,
      int comparableRates,
      List<CellAssessment> cells,
      boolean clientSideEvidence) {
    this(
        established,
        controlMarker,
        failures,
        rates,
        excluded,
        fatal,
        workerRate,
        knee,
        notes,
        method,
        config,
        comparableRates,
        cells,
        clientSideEvidence,
        null);
  }

  /** The label of a pass whose contamination evidence came from the relay's counters. */
  public static final String PASS = "ESTABLISHED";

  /** The label of a pass whose contamination evidence is the generator's alone. */
  public static final String CLIENT_SIDE_PASS = "ESTABLISHED (client-side evidence)";

  /** The label of a fail. */
  public static final String FAIL = "NOT ESTABLISHED";

  public static final String CONTROL_RAN = "ran";
  public static final String CONTROL_SKIPPED = "skipped";

  public VerdictReport {
    if (!CONTROL_RAN.equals(controlMarker) && !CONTROL_SKIPPED.equals(controlMarker)) {
      throw new IllegalArgumentException(
          "control_marker must be 'ran' or 'skipped', got " + controlMarker);
    }
    failures = List.copyOf(failures);
    rates = List.copyOf(rates);
    excluded = List.copyOf(excluded);
    fatal = List.copyOf(fatal);
    notes = List.copyOf(notes);
    cells = List.copyOf(cells);
    Objects.requireNonNull(method, "method must not be null");
    Objects.requireNonNull(config, "config must not be null");
    if (established != failures.isEmpty()) {
      throw new IllegalArgumentException(
          "established must be true exactly when there are no failures, got established="
              + established
              + " with "
              + failures.size()
              + " failures");
    }
    if (established && CONTROL_SKIPPED.equals(controlMarker)) {
      throw new IllegalArgumentException("a run whose control was skipped cannot be established");
    }
    if (established && !fatal.isEmpty()) {
      throw new IllegalArgumentException("a run with fatal problems cannot be established");
    }
    if (comparableRates < 0) {
      throw new IllegalArgumentException("comparable_rates must be >= 0, got " + comparableRates);
    }
  }

  /** {@link #PASS}, {@link #CLIENT_SIDE_PASS} or {@link #FAIL}: what a summary's headline says. */
  public String label() {
    if (!established) {
      return FAIL;
    }
    return clientSideEvidence ? CLIENT_SIDE_PASS : PASS;
  }

  /**
   * False when the control ran but some control cell could not show that its code path was off: it
   * exposed neither the audit completion counter nor the audit row count and ran no control check
   * ({@link ProblemKind#CONTROL_NOT_VERIFIED}). True when the control ran and every control cell
   * showed it; false when the control was skipped.
   */
  public boolean controlVerifiedPositive() {
    return CONTROL_RAN.equals(controlMarker)
        && cells.stream()
            .flatMap(c -> c.problems().stream())
            .noneMatch(p -> p.kind() == ProblemKind.CONTROL_NOT_VERIFIED);
  }

  /**
   * What a summary says about the control beside the label: {@code control ran}, {@code control
   * ran, not verified positive} or {@code control skipped}.
   */
  public String controlPhrase() {
    if (CONTROL_SKIPPED.equals(controlMarker)) {
      return "control skipped";
    }
    return controlVerifiedPositive() ? "control ran" : "control ran, not verified positive";
  }

  /** The headline: the label and the control phrase, e.g. {@code ESTABLISHED (control ran)}. */
  public String headline() {
    return label() + " (" + controlPhrase() + ")";
  }

  /** The operator-facing lines, one per failure: {@code NOT ESTABLISHED: <message>}. */
  public List<String> failureLines() {
    return failures.stream().map(f -> "NOT ESTABLISHED: " + f.message()).toList();
  }
}
