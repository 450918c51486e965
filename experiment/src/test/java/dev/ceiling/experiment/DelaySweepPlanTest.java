package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plan of a delay sweep: a pure function of its inputs, fixed before any cell. */
class DelaySweepPlanTest {
  private static DelaySweepPlan plan(List<Double> delays, int repeats, long seed) {
    return DelaySweepPlan.builder()
        .link("db")
        .delaysMs(delays)
        .repeats(repeats)
        .offeredPerS(300)
        .offerRule("given")
        .perPointOffer(null)
        .durationS(3)
        .seed(seed)
        .level(0.95)
        .lackOfFitAlpha(0.05)
        .expectedRoundTrips(6.0)
        .margin(0.5)
        .build();
  }

  @Test
  void everyDelayAndRepeatRunsOnceInAnOrderTheSeedFixes() {
    List<Double> grid = List.of(0.0, 0.5, 1.0, 2.0, 3.0, 4.0);
    DelaySweepPlan p = plan(grid, 3, 42);
    assertThat(p.cells()).hasSize(18);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < p.cells().size(); i++) {
      DelaySweepPlan.Cell c = p.cells().get(i);
      assertThat(c.sequence()).isEqualTo(i);
      seen.add(c.addedDelayMs() + "/" + c.repeat());
    }
    assertThat(seen).doesNotHaveDuplicates();
    assertThat(plan(grid, 3, 42)).isEqualTo(p);
    // Partner: another seed gives another order of the same cells, and neither is the grid's own
    // ascending order (which would confound the delay with time in the run).
    DelaySweepPlan other = plan(grid, 3, 43);
    assertThat(other.cells()).isNotEqualTo(p.cells());
    assertThat(other.cells().stream().map(c -> c.addedDelayMs() + "/" + c.repeat()).toList())
        .containsExactlyInAnyOrderElementsOf(seen);
    List<Double> inOrder = p.cells().stream().map(DelaySweepPlan.Cell::addedDelayMs).toList();
    assertThat(inOrder).isNotEqualTo(inOrder.stream().sorted().toList());
  }

  @Test
  void aBadGridIsRefusedWithEveryProblemNamed() {
    assertThat(DelaySweepPlan.problemsOfGrid(List.of(0.0, 1.0, 1.0, -2.0)))
        .containsExactly(
            "delays must be strictly ascending without duplicates, got [0.0, 1.0, 1.0, -2.0]",
            "delays must each be in [0, 10000] ms, got -2.0");
    assertThat(DelaySweepPlan.problemsOfGrid(List.of(3.0)))
        .containsExactly("delays must name at least 2 delays for a line, got [3.0]");
    assertThat(DelaySweepPlan.problemsOfGrid(List.of(0.0, 0.5, 4.0))).isEmpty();
    assertThatThrownBy(() -> plan(List.of(2.0, 1.0), 0, 1))
        .hasMessageContaining("delays must be strictly ascending")
        .hasMessageContaining("repeats must be >= 1, got 0");
  }

  @Test
  void theOptionsNameAnUnknownLinkWithTheDeclaredOnes() throws Exception {
    var profile = dev.ceiling.rig.RelayProfile.builtIn("reference-linked");
    assertThat(
            DelaySweep.builder()
                .profile(profile)
                .link("redis")
                .delaysMs(List.of(0.0, 1.0))
                .repeats(2)
                .duration(java.time.Duration.ofSeconds(1))
                .problems())
        .containsExactly(
            "link 'redis' is not a link of profile 'reference-linked', which declares [db]");
    assertThat(
            DelaySweep.builder()
                .profile(profile)
                .link("db")
                .delaysMs(List.of(0.0, 1.0))
                .repeats(1)
                .duration(java.time.Duration.ZERO)
                .rate(-1.0)
                .expectRoundTrips(-1.0)
                .margin(0)
                .problems())
        .hasSize(5);
    // Partner: good settings have no problem.
    assertThat(
            DelaySweep.builder()
                .profile(profile)
                .link("db")
                .delaysMs(List.of(0.0, 1.0))
                .repeats(2)
                .duration(java.time.Duration.ofSeconds(1))
                .expectRoundTrips(6.0)
                .problems())
        .isEmpty();
  }
}
