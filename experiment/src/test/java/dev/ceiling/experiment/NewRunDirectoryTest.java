package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.ExperimentIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A build that runs an experiment twice must not meet the first run's journals. The failing partner
 * is the fixed directory the example used: its second run is refused (before any relay starts),
 * which is what a new directory per run avoids.
 */
class NewRunDirectoryTest {
  @TempDir Path dir;

  @Test
  void runsInARowGetDistinctEmptyDirectories() throws Exception {
    Set<Path> seen = new HashSet<>();
    // Many in a row, most in the same millisecond: the suffixes keep them apart.
    for (int i = 0; i < 50; i++) {
      Path d = Experiment.newRunDirectory(dir.resolve("reports"));
      assertThat(d).isEmptyDirectory().hasParent(dir.resolve("reports"));
      assertThat(seen.add(d)).as("%s handed out twice", d).isTrue();
      Journal.create(d.resolve("journal-on.jsonl"), identity(), "on").close();
    }
  }

  @Test
  void aFixedDirectoryIsRefusedOnTheSecondRunBeforeAnythingStarts() throws Exception {
    Path fixed = dir.resolve("ceiling-experiment");
    Files.createDirectories(fixed);
    assertThat(ResumeCheck.journals(fixed, arms(), false)).isEmpty();
    Journal.create(fixed.resolve("journal-on.jsonl"), identity(), "on").close();
    assertThatThrownBy(() -> ResumeCheck.journals(fixed, arms(), false))
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining("already holds an earlier run (journal-on.jsonl)")
        .hasMessageContaining("ceiling experiment --resume " + fixed);
    // The same directory is what resume continues.
    assertThat(ResumeCheck.journals(fixed, arms(), true)).containsOnlyKeys("on");
  }

  @Test
  void resumeRefusesADirectoryWithoutJournalsAndJournalsOfAnotherArm() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    assertThatThrownBy(() -> ResumeCheck.journals(empty, arms(), true))
        .hasMessageContaining("nothing to resume in " + empty)
        .hasMessageContaining("journal-on.jsonl or journal-off.jsonl");
    Path swapped = Files.createDirectories(dir.resolve("swapped"));
    Journal.create(swapped.resolve("journal-off.jsonl"), identity(), "on").close();
    assertThatThrownBy(() -> ResumeCheck.journals(swapped, arms(), true))
        .hasMessageContaining("is the journal of arm 'on', not 'off'");
  }

  private static List<String> arms() {
    return List.of("on", "off");
  }

  static ExperimentIdentity identity() {
    return new ExperimentIdentity(
        "reference",
        "on",
        "off",
        List.of(100.0),
        1.0,
        2,
        "ascending",
        null,
        List.of("a.localhost"),
        Map.of(),
        100,
        "test",
        null,
        null,
        null,
        Map.of());
  }
}
