package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import org.junit.jupiter.api.Test;

/**
 * A version 2 file written before the drain timeout and the control check were recorded still
 * reads, with those fields null; any other missing field is still refused.
 */
class AddedFieldsOfTheControlAndDrainTest {
  /** The golden text with every line naming {@code field} removed (and the comma before it). */
  private static String without(String json, String field) {
    return json.replaceAll(",\\n\\s*\"" + field + "\" : (null|\\{[^}]*\\}|\\[[^\\]]*\\])", "");
  }

  @Test
  void aCellWrittenBeforeTheLaterFieldsReadsThemAsNull() throws Exception {
    String golden = GoldenFilesTest.golden("cell.json");
    String old = without(without(golden, "drain_timeout"), "control_check");
    assertThat(old).doesNotContain("drain_timeout").doesNotContain("control_check");
    Cell c = Json.read(old, "old.json", Cell.class);
    assertThat(c.drainTimeout()).isNull();
    assertThat(c.controlCheck()).isNull();
    assertThat(c)
        .isEqualTo(
            GoldenFixtures.fullCell().toBuilder().drainTimeout(null).controlCheck(null).build());
  }

  @Test
  void aHalfRunWrittenBeforeTheLaterFieldsReads() throws Exception {
    String golden = GoldenFilesTest.golden("half-run.json");
    String old =
        without(without(without(golden, "drain_timeout"), "control_check"), "control_check");
    assertThat(old).doesNotContain("control_check");
    HalfRun h = Json.read(old, "old.json", HalfRun.class);
    assertThat(h.rig().controlCheck()).isNull();
  }

  @Test
  void anyOtherMissingFieldIsStillRefused() throws Exception {
    // Partner: the filler must not turn the strict reader lenient.
    String golden = GoldenFilesTest.golden("cell.json");
    String old = without(golden, "scrape_end_s");
    assertThat(old).doesNotContain("scrape_end_s");
    assertThatThrownBy(() -> Json.read(old, "old.json", Cell.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessageContaining("scrape_end_s");
  }

  @Test
  void aWrittenDrainTimeoutAndControlCheckReadBackEqual() throws Exception {
    Cell c = GoldenFixtures.fullCell();
    Cell back = Json.read(Json.write(c), "cell.json", Cell.class);
    assertThat(back.drainTimeout()).isEqualTo(new DrainTimeout(60.0, 812.0, 0.0, 900.0));
    assertThat(back.controlCheck().unchanged()).isFalse();
    assertThat(new ControlCheckReading("audit=absent", 0, "audit=absent", 0).unchanged()).isTrue();
    assertThat(new ControlCheckReading("x", null, "x", null).unchanged()).isFalse();
  }
}
