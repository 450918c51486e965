package dev.ceiling.experiment;

/**
 * How an experiment ended, in the API's terms; the CLI maps each to a process exit code and an
 * embedding test suite asserts on it directly.
 */
public enum Outcome {
  /** The contract passed: the treatment arm is shown to limit ingest. */
  ESTABLISHED,
  /** The contract failed, or the result is partial (a half-run, an interrupted sweep). */
  NOT_ESTABLISHED,
  /** Bad usage or bad input (a malformed spec, profile or report; no rates to place). */
  BAD_INPUT,
  /** Infrastructure failure: the relay did not start, metrics were unreachable, a write failed. */
  INFRASTRUCTURE
}
