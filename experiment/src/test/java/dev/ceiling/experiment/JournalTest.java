package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {
  @TempDir Path dir;

  static ExperimentIdentity identity(int repeats) {
    return new ExperimentIdentity(
        "reference",
        "on",
        "off",
        List.of(100.0, 200.0),
        2.0,
        repeats,
        "ascending",
        null,
        List.of("a.localhost:1"),
        Map.of("limiter_events_per_sec", "1000000"),
        1000,
        "0.1.0@abc",
        null,
        null,
        "digest",
        java.util.Map.of());
  }

  static Cell cell(int sequence, double rate) {
    return Cell.builder()
        .arm("on")
        .offeredPerS(rate)
        .sequence(sequence)
        .durationRequestedS(2)
        .attempted((long) (rate * 2))
        .accepted((long) (rate * 2))
        .build();
  }

  @Test
  void cellsSurviveAReadBack() throws Exception {
    Path f = dir.resolve("j.jsonl");
    try (Journal j = Journal.create(f, identity(2), "on")) {
      j.append(cell(0, 100));
      j.append(cell(1, 100));
    }
    Journal.Contents c = Journal.read(f);
    assertThat(c.identity()).isEqualTo(identity(2));
    assertThat(c.arm()).isEqualTo("on");
    assertThat(c.cells()).containsExactly(cell(0, 100), cell(1, 100));
  }

  @Test
  void aTornLastLineIsTheCellThatWasRunningAndIsDropped() throws Exception {
    Path f = dir.resolve("j.jsonl");
    try (Journal j = Journal.create(f, identity(2), "on")) {
      j.append(cell(0, 100));
    }
    Files.writeString(f, "{\"type\":\"cell\",\"cell\":{\"arm\":\"o", StandardOpenOption.APPEND);
    assertThat(Journal.read(f).cells()).containsExactly(cell(0, 100));
  }

  @Test
  void resumingATornJournalTruncatesTheTornLineBeforeAppendingAndSaysWhat() throws Exception {
    Path f = dir.resolve("j.jsonl");
    try (Journal j = Journal.create(f, identity(2), "on")) {
      j.append(cell(0, 100));
    }
    String torn = "{\"type\":\"cell\",\"cell\":{\"arm\":\"o";
    Files.writeString(f, torn, StandardOpenOption.APPEND);
    Journal.Contents c = Journal.read(f);
    assertThat(c.tornMessage(f).orElseThrow())
        .contains("dropped a torn last line (" + torn.length() + " bytes")
        .contains("measured again");
    try (Journal j = Journal.reopen(f, c)) {
      j.append(cell(1, 100));
    }
    // The next resume reads both cells: the torn bytes are gone, not glued to the new line.
    Journal.Contents again = Journal.read(f);
    assertThat(again.cells()).containsExactly(cell(0, 100), cell(1, 100));
    assertThat(again.tornMessage(f)).isEmpty();
    assertThat(Files.readString(f)).doesNotContain(torn + "{");
  }

  @Test
  void mutantAppendingAfterATornLineCorruptsTheJournal() throws Exception {
    Path f = dir.resolve("j.jsonl");
    try (Journal j = Journal.create(f, identity(2), "on")) {
      j.append(cell(0, 100));
    }
    Files.writeString(f, "{\"type\":\"cell\",\"cell\":{\"arm\":\"o", StandardOpenOption.APPEND);
    Journal.Contents c = Journal.read(f);
    // MUTANT: the old reopen, appending without truncating (a journal that claims to be clean).
    Journal.Contents lying =
        new Journal.Contents(c.identity(), c.arm(), c.cells(), c.totalBytes(), c.totalBytes(), "");
    try (Journal j = Journal.reopen(f, lying)) {
      j.append(cell(1, 100));
    }
    assertThatThrownBy(() -> Journal.read(f))
        .isInstanceOf(ReportFormatException.class)
        .hasMessageContaining("j.jsonl line 3");
  }

  @Test
  void aJournalChangedSinceItWasReadIsNotAppendedTo() throws Exception {
    Path f = dir.resolve("j.jsonl");
    try (Journal j = Journal.create(f, identity(2), "on")) {
      j.append(cell(0, 100));
    }
    Journal.Contents c = Journal.read(f);
    Files.writeString(f, "x", StandardOpenOption.APPEND);
    assertThatThrownBy(() -> Journal.reopen(f, c))
        .hasMessageContaining("changed since it was read");
  }

  @Test
  void aCorruptLineInTheMiddleIsAnErrorNamingTheLine() throws Exception {
    Path f = dir.resolve("j.jsonl");
    try (Journal j = Journal.create(f, identity(2), "on")) {
      j.append(cell(0, 100));
    }
    Files.writeString(f, "{\"type\":\"cell\"}\n", StandardOpenOption.APPEND);
    // The mutant a lenient reader would be: skipping line 3 and losing a measurement silently.
    assertThatThrownBy(() -> Journal.read(f))
        .isInstanceOf(ReportFormatException.class)
        .hasMessageContaining("j.jsonl line 3: $.schema_version: missing field");
  }

  @Test
  void refusesToOverwriteAnExistingJournal() throws Exception {
    Path f = dir.resolve("j.jsonl");
    Journal.create(f, identity(2), "on").close();
    assertThatThrownBy(() -> Journal.create(f, identity(2), "on"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("journal exists; continue it");
  }

  @Test
  void aJournalWithoutHeaderIsRejected() throws Exception {
    Path f = dir.resolve("j.jsonl");
    Files.writeString(f, "", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> Journal.read(f)).hasMessageContaining("journal has no header line");
  }

  @Test
  void identityDifferencesAreAllListed() {
    ExperimentIdentity a = identity(2);
    ExperimentIdentity b =
        new ExperimentIdentity(
            "reference",
            "on",
            "off",
            List.of(100.0, 300.0),
            3.0,
            2,
            "ascending",
            null,
            List.of("a.localhost:1"),
            Map.of("limiter_events_per_sec", "1000000"),
            1000,
            "0.1.0@abc",
            null,
            null,
            "digest",
            java.util.Map.of());
    assertThat(Differences.differences(a, b))
        .hasSize(2)
        .anySatisfy(s -> assertThat(s).startsWith("ratesPerS:"))
        .anySatisfy(s -> assertThat(s).startsWith("durationS:"));
    assertThat(Differences.differences(a, identity(2))).isEmpty();
  }
}
