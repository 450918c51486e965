package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Every wither changes its own components and keeps every other one: they all copy through one
 * mapping, and a field that mapping dropped or swapped would show here as a second difference.
 */
class UpOptionsWithersTest {
  private static final UpOptions BASE =
      UpOptions.of(builtIn(), "on", Path.of("state")).withOverrides(Map.of("port", "47200"));

  private static RelayProfile builtIn() {
    try {
      return RelayProfile.builtIn("reference");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void eachWitherChangesOnlyItsOwnComponents() throws Exception {
    check(o -> o.withReset(true), "reset");
    check(o -> o.withSkipRelay(true), "skipRelay");
    check(
        o -> o.withTimeouts(Duration.ofSeconds(7), Duration.ofSeconds(8), Duration.ofSeconds(9)),
        "readyTimeout",
        "portWait",
        "stopTimeout");
    check(o -> o.withOverrides(Map.of("exchange_delay_ms", "2")), "overrides");
    check(o -> o.withExtraArgs(List.of("--x")), "extraArgs");
    check(o -> o.withUpstreamMode(UpOptions.UpstreamMode.DIRECT), "upstreamMode");
    check(o -> o.withAllowRemoteUpstreams(true), "allowRemoteUpstreams");
  }

  @Test
  void aWitherThatAlsoChangesAnotherComponentIsCaught() {
    // The mutant: a reset wither whose copy also lost the extra arguments.
    assertThatThrownBy(() -> check(o -> o.withExtraArgs(List.of("--x")).withReset(true), "reset"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("extraArgs");
  }

  private static void check(UnaryOperator<UpOptions> wither, String... changed) throws Exception {
    UpOptions after = wither.apply(BASE);
    List<String> differs = new ArrayList<>();
    for (var c : UpOptions.class.getRecordComponents()) {
      if (!c.getAccessor().invoke(BASE).equals(c.getAccessor().invoke(after))) {
        differs.add(c.getName());
      }
    }
    assertThat(differs).containsExactlyInAnyOrder(changed);
  }
}
