package dev.ceiling.verdict;

/** Why a run is not established. A report lists every failure that applies, not the first. */
public enum FailureKind {
  /** A fatal cell problem (an enqueue failure, an impossible measurement) fails the run. */
  FATAL,
  /** Only the treatment half ran: a single-arm dataset never passes. */
  CONTROL_SKIPPED,
  /** Only the control half ran. */
  TREATMENT_SKIPPED,
  /** A half stopped before its plan was done: a partial dataset is not the planned experiment. */
  INCOMPLETE,
  /**
   * A half holds cells the plan does not: an extra cell, a duplicate, a repeated sequence number.
   * Anything but the planned experiment is refused, with every such cell listed.
   */
  NOT_THE_PLAN,
  /** No rate had enough evidence cells in both arms: too much of the dataset was excluded. */
  NO_COMPARABLE_RATE,
  /** No comparable rate separated: the treatment is not shown to limit ingest. */
  NOT_SEPARATED,
  /** The data came from the model: arithmetic for review, never evidence. */
  MODEL_NOT_EVIDENCE
}
