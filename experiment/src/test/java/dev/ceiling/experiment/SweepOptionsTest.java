package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each wither changes its own component and no other; the record still checks the new value. */
class SweepOptionsTest {
  static final SweepOptions D = SweepOptions.defaults(Path.of("j.jsonl"));

  /** The names of the components in which {@code b} differs from {@code a}. */
  static List<String> differing(SweepOptions a, SweepOptions b) throws Exception {
    List<String> out = new ArrayList<>();
    for (RecordComponent c : SweepOptions.class.getRecordComponents()) {
      if (!c.getAccessor().invoke(a).equals(c.getAccessor().invoke(b))) {
        out.add(c.getName());
      }
    }
    return out;
  }

  @Test
  void eachWitherChangesOnlyItsComponent() throws Exception {
    assertThat(differing(D, D.withResume(true))).containsExactly("resume");
    assertThat(differing(D, D.withTwoCommunity(true))).containsExactly("twoCommunity");
    assertThat(differing(D, D.withWarmup(Duration.ofSeconds(7)))).containsExactly("warmup");
    assertThat(differing(D, D.withJournal(Path.of("k.jsonl")))).containsExactly("journal");
    assertThat(differing(D, D.withGrace(Duration.ofSeconds(7)))).containsExactly("grace");
    assertThat(differing(D, D.withDrainTimeout(Duration.ofSeconds(7))))
        .containsExactly("drainTimeout");
    assertThat(differing(D, D.withSendLagBound(Duration.ofSeconds(7))))
        .containsExactly("sendLagBound");
    assertThat(differing(D, D.withGenerators(3))).containsExactly("generators");
    // The partner: the comparison sees a second change.
    assertThat(differing(D, D.withGenerators(3).withResume(true)))
        .containsExactly("resume", "generators");
  }

  @Test
  void aWitherStillHasItsValueChecked() {
    assertThatThrownBy(() -> D.withGenerators(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("generators must be in [1, 256], got 0");
    assertThatThrownBy(() -> D.withGrace(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("grace must be > 0, got PT0S");
  }
}
