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

  /**
   * On a relay without a worker metric the answer's count is the latency slope, beside the wire
   * turns per OK-true answer and the ceiling's reading. nostream's default sweep printed the
   * ceiling's slope (0.1) there as the round trips, with "no wire count", above a table giving the
   * latency slope 1.01 and the wire 1.00. Partner: the row without a latency slope keeps the
   * ceiling's count, as in the test above.
   */
  @Test
  void onARelayWithoutMetricsTheAnswerGivesTheLatencySlopeAndItsWireCount() {
    var db =
        new LinkSweepsReport.Row(
            "db",
            "db",
            Outcome.ESTABLISHED,
            new Estimate(0.05, 0.08, 4, -0.12, 0.22, 0.95),
            true,
            null,
            null,
            null,
            null,
            "",
            new Estimate(1.01, 0.12, 4, 0.76, 1.27, 0.95),
            true,
            1.0,
            559.0,
            37.0,
            "not bounding");
    assertThat(LinkSweeps.answer(List.of(db), true))
        .isEqualTo(
            "sequential round trips per event by link: 'db' 1.0 [0.8, 1.3] on the OK path (wire"
                + " 1.00; ceiling: not bounding)");
    var noLine =
        new LinkSweepsReport.Row(
            "db",
            "db",
            Outcome.NOT_ESTABLISHED,
            null,
            null,
            null,
            null,
            null,
            null,
            "",
            new Estimate(1.7, 0.2, 4, 1.2, 2.2, 0.95),
            false,
            null,
            null,
            null,
            null);
    assertThat(LinkSweeps.answer(List.of(noLine), true))
        .contains("'db' no count on the OK path (its latency line does not hold) (no wire count)");
  }
}
