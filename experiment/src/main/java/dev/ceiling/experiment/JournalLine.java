package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import java.util.Objects;

/**
 * One line of a sweep journal (JSON lines): the first line is a header naming the identity and the
 * arm, every later line one finished cell.
 *
 * @param type "header" or "cell"
 * @param schemaVersion the journal format version (header only, else null)
 * @param identity the experiment identity (header only, else null)
 * @param arm the arm this journal measures (header only, else null)
 * @param cell the finished cell (cell lines only, else null)
 */
record JournalLine(
    String type, Integer schemaVersion, ExperimentIdentity identity, String arm, Cell cell) {
  static final int VERSION = 1;

  public JournalLine {
    if ("header".equals(type)) {
      Objects.requireNonNull(schemaVersion, "a header needs schema_version");
      Objects.requireNonNull(identity, "a header needs identity");
      Objects.requireNonNull(arm, "a header needs arm");
      if (schemaVersion != VERSION) {
        throw new IllegalArgumentException(
            "schema_version must be " + VERSION + ", got " + schemaVersion);
      }
      if (cell != null) {
        throw new IllegalArgumentException("a header must not carry a cell");
      }
    } else if ("cell".equals(type)) {
      Objects.requireNonNull(cell, "a cell line needs cell");
      if (schemaVersion != null || identity != null || arm != null) {
        throw new IllegalArgumentException("a cell line carries only the cell");
      }
    } else {
      throw new IllegalArgumentException("type must be 'header' or 'cell', got " + type);
    }
  }

  static JournalLine header(ExperimentIdentity identity, String arm) {
    return new JournalLine("header", VERSION, identity, arm, null);
  }

  static JournalLine cell(Cell cell) {
    return new JournalLine("cell", null, null, null, cell);
  }
}
