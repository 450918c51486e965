package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import org.junit.jupiter.api.Test;

/** A file written before a field was added still reads, the field null; the reader stays strict. */
class AddedFieldsTest {
  @Test
  void aCellWrittenBeforeTheWakeFloorWasRecordedReadsItAsNull() throws Exception {
    String now = Json.write(GoldenFixtures.fullCell());
    assertThat(Json.read(now, "now", Cell.class).wakeFloorP99Ms()).isEqualTo(1.4);
    String before = now.replaceAll(",\\s*\"wake_floor_p99_ms\"\\s*:\\s*1\\.4", "");
    assertThat(before).doesNotContain("wake_floor");
    Cell old = Json.read(before, "before", Cell.class);
    assertThat(old.wakeFloorP99Ms()).isNull();
    assertThat(old.toBuilder().wakeFloorP99Ms(1.4).build()).isEqualTo(GoldenFixtures.fullCell());
    // Partner: a misspelt field is not mistaken for the missing one.
    String misspelt = now.replace("\"wake_floor_p99_ms\"", "\"wake_floor_p99\"");
    assertThatThrownBy(() -> Json.read(misspelt, "misspelt", Cell.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessageContaining("wake_floor_p99");
  }
}
