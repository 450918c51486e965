package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.Estimate;
import dev.ceiling.verdict.Tost;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A sweep per link's checks and table, without a relay. */
class LinkSweepsTest {
  private static final List<String> DECLARED = List.of("a", "b");

  @Test
  void everyLinkAndEveryCountMustBeOneTheProfileDeclaresAndSweeps() {
    assertThat(LinkSweeps.problems(List.of("a", "b"), DECLARED, Map.of("a", 2.0), false)).isEmpty();
    assertThat(LinkSweeps.problems(List.of("a", "c"), DECLARED, Map.of(), false))
        .containsExactly("link 'c' is not a link of the profile, which declares [a, b]");
    assertThat(LinkSweeps.problems(List.of("a", "a"), DECLARED, Map.of(), false))
        .containsExactly("links must not repeat a link, got [a, a]");
    assertThat(LinkSweeps.problems(List.of("a"), DECLARED, Map.of("b", 3.0), false))
        .containsExactly("expected round trips for link 'b', which is not swept (links [a])");
    assertThat(LinkSweeps.problems(List.of("a"), DECLARED, Map.of("a", -1.0), false))
        .containsExactly(
            "expected round trips for link 'a' must be a finite number >= 0, got -1.0");
    assertThat(LinkSweeps.problems(List.of(), DECLARED, Map.of(), false)).hasSize(1);
    assertThat(LinkSweeps.problems(List.of("a"), DECLARED, Map.of(), true))
        .containsExactly("a contrast sweeps one link: give one link with it, not several");
  }

  @Test
  void theBuilderKeepsOneLinkAndSeveralLinksApart() throws Exception {
    RelayProfile p = RelayProfile.builtIn("reference-linked");
    assertThat(DelaySweep.builder().profile(p).links(List.of("db")).link("db").problems())
        .contains("a sweep per link takes links and counts by link, not one link or count");
    assertThat(
            DelaySweep.builder()
                .profile(p)
                .link("db")
                .expectRoundTripsByLink(Map.of("db", 6.0))
                .problems())
        .contains("counts by link are for a sweep per link (links); one link takes one count");
    assertThatThrownBy(
            () -> DelaySweep.builder().profile(p).links(List.of("db")).outDir(Path.of("x")).build())
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining("buildLinks()");
    // Partner: the same links, built as a sweep per link, are good.
    assertThat(DelaySweep.builder().profile(p).links(List.of("db")).problems()).isEmpty();
  }

  @Test
  void theAnswerNamesEachLinksCountNextToItsWireCount() {
    var a =
        new LinkSweepsReport.Row(
            "a",
            "a",
            Outcome.ESTABLISHED,
            new Estimate(2.04, 0.07, 4, 1.9, 2.2, 0.95),
            true,
            2.0,
            2.01,
            2.0,
            Tost.Reading.CONSISTENT,
            "");
    var b =
        new LinkSweepsReport.Row(
            "b", "b", Outcome.NOT_ESTABLISHED, null, null, null, 2.98, 3.0, null, "no line");
    assertThat(LinkSweeps.answer(List.of(a, b), true))
        .isEqualTo(
            "sequential round trips per event by link: 'a' 2.0 [1.9, 2.2] (wire 2.00,"
                + " CONSISTENT), 'b' no count (wire 2.98 over every cell)");
    assertThat(LinkSweeps.answer(List.of(a), false)).endsWith("(partial)");
    assertThat(a.line()).contains("2.04 [1.90, 2.20]", "2.00", "2.01", "CONSISTENT");
    assertThat(b.line()).contains("n/a", "NOT_ESTABLISHED");
  }
}
