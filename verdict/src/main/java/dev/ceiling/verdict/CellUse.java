package dev.ceiling.verdict;

/** What the verdict did with a cell. */
public enum CellUse {
  /** Entered the separation test at its rate. */
  EVIDENCE,
  /** Kept out for at least one excluding problem. */
  EXCLUDED,
  /** Two-community cells: shown and annotated, never evidence. */
  REPORT_ONLY
}
