package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.rig.RelayProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plan {@code ceiling explain} fixes before its first cell is a pure function of the options
 * and the profile: which rounds run, their directories, settings and cells, and for each round the
 * profile does not allow one line saying why. No relay starts here.
 */
class ExplainPlanTest {
  private static Explain.Builder on(String profile) throws Exception {
    return Explain.builder()
        .profile(RelayProfile.builtIn(profile))
        .outDir(Path.of("target", "explain-plan-test"))
        .installShutdownHook(false);
  }

  @Test
  void theReferenceRelayRunsTheAbTheSweepOnItsLinkAndTheLockRound() throws Exception {
    ExplainPlan p = on("reference").repeats(2).rates(List.of(100.0, 200.0)).build().plan();
    assertThat(p.rounds())
        .extracting(ExplainPlan.Round::dir)
        .containsExactly("ab", "delay-sweep-builtin", "split");
    // The A/B: 2 arms x 2 rates x 2 repeats; the sweep: 6 default delays x 2; split: 2 x 2 x 2.
    assertThat(p.rounds()).extracting(ExplainPlan.Round::cells).containsExactly(8, 12, 8);
    assertThat(p.rounds().get(1).settings().link()).isEqualTo("builtin");
    assertThat(p.rounds().get(0).settings().ratesPerS()).containsExactly(100.0, 200.0);
    assertThat(p.notRun()).hasSize(1);
    assertThat(p.notRun().get(0).reason())
        .isEqualTo("profile 'reference' declares no admission limits (admission_limits)");
    // One cell: 2 s warm-up + 4 s window + 1.5 s; one start per round, two for the A/B.
    assertThat(p.rounds().get(0).estimateS()).isEqualTo(8 * 7.5 + 2 * 6);
    assertThat(p.estimateS())
        .isEqualTo(p.rounds().stream().mapToDouble(ExplainPlan.Round::estimateS).sum());
  }

  /**
   * The reference relay at its own limiter defaults declares them (10 events/s per key over a 5 s
   * window: 50 per window), so explain's defaults round runs there with the default cells (2 s
   * warm-up + 4 s window cover 5 s); partner: 1 s windows do not cover it, one line why.
   */
  @Test
  void theReferenceRelayAtItsLimiterDefaultsRunsTheDefaultsRound() throws Exception {
    RelayProfile p = RelayProfile.builtIn("reference-defaults");
    assertThat(p.admissionLimits())
        .singleElement()
        .satisfies(l -> assertThat(l.limit()).isEqualTo(50));
    ExplainPlan plan = on("reference-defaults").build().plan();
    assertThat(plan.rounds())
        .extracting(ExplainPlan.Round::dir)
        .containsExactly("ab", "defaults", "split");
    ExplainPlan shortCells =
        on("reference-defaults").duration(Duration.ofSeconds(1)).build().plan();
    assertThat(shortCells.rounds())
        .extracting(ExplainPlan.Round::dir)
        .containsExactly("ab", "split");
    assertThat(shortCells.notRun())
        .extracting(ExplainPlan.NotRun::reason)
        .anySatisfy(r -> assertThat(r).contains("has a 5 s window"));
  }

  /** nostream's profile: two links, one community, admission limits declared. */
  private static Explain.Builder nostream(java.util.function.UnaryOperator<String> edit)
      throws Exception {
    Path source = Path.of("..", "docs", "profiles", "nostream", "profile.json");
    Path copy = java.nio.file.Files.createTempDirectory("explain-plan").resolve("profile.json");
    java.nio.file.Files.writeString(copy, edit.apply(java.nio.file.Files.readString(source)));
    return Explain.builder()
        .profile(RelayProfile.load(copy))
        .outDir(Path.of("target", "explain-plan-test"))
        .installShutdownHook(false);
  }

  @Test
  void aProfileWithAdmissionLimitsAddsTheDefaultsRoundWhenItsCellsCoverTheWindow()
      throws Exception {
    // As shipped, a 3600 s window applies to the offer: no default cell covers it, one line why.
    ExplainPlan shipped = nostream(s -> s).build().plan();
    assertThat(shipped.rounds())
        .extracting(ExplainPlan.Round::dir)
        .containsExactly("ab", "delay-sweep-db", "delay-sweep-cache");
    assertThat(shipped.notRun())
        .extracting(ExplainPlan.NotRun::kind)
        .containsExactly(ExplainPlan.Kind.DEFAULTS, ExplainPlan.Kind.SPLIT);
    assertThat(shipped.notRun().get(0).reason()).contains("3600");

    // Windows of 5 s: 2 s warm-up + 4 s window covers them, and the round runs.
    java.util.function.UnaryOperator<String> fiveSeconds =
        s ->
            s.replace("\"window_seconds\": 3600", "\"window_seconds\": 5")
                .replace("\"window_seconds\": 60", "\"window_seconds\": 5");
    ExplainPlan covered = nostream(fiveSeconds).build().plan();
    assertThat(covered.rounds().stream().filter(r -> r.kind() == ExplainPlan.Kind.DEFAULTS))
        .singleElement()
        .satisfies(r -> assertThat(r.settings().identities()).containsExactly(10, 100, 500));

    // Partner: cells shorter than the declared window cannot read the limiter: one line why.
    ExplainPlan shortCells =
        nostream(fiveSeconds)
            .duration(Duration.ofSeconds(1))
            .warmup(Duration.ofMillis(500))
            .build()
            .plan();
    assertThat(shortCells.rounds())
        .extracting(ExplainPlan.Round::kind)
        .doesNotContain(ExplainPlan.Kind.DEFAULTS);
    assertThat(shortCells.notRun())
        .extracting(ExplainPlan.NotRun::kind)
        .contains(ExplainPlan.Kind.DEFAULTS);
  }

  /**
   * A relay that predicts no ceiling (nostream) would ramp once per link: a sweep rate fixes every
   * sweep's offer in the plan, and a latency rate adds a latency cell before each cell.
   */
  @Test
  void aSweepRateAndALatencyRateAreInTheSweepsPlanAndTheLatencyCellsInItsCount() throws Exception {
    ExplainPlan own = nostream(s -> s).repeats(2).delaysMs(List.of(2.0, 4.0)).build().plan();
    ExplainPlan.Round db = own.rounds().get(1);
    assertThat(db.settings().ratesPerS()).isNull();
    assertThat(db.settings().latencyRatePerS()).isNull();
    assertThat(db.cells()).isEqualTo(4);
    ExplainPlan fixed =
        nostream(s -> s)
            .repeats(2)
            .delaysMs(List.of(2.0, 4.0))
            .sweepRate(100.0)
            .latencyRate(20.0)
            .build()
            .plan();
    for (ExplainPlan.Round sweep : fixed.rounds().subList(1, 3)) {
      assertThat(sweep.kind()).isEqualTo(ExplainPlan.Kind.DELAY_SWEEP);
      assertThat(sweep.settings().ratesPerS()).containsExactly(100.0);
      assertThat(sweep.settings().latencyRatePerS()).isEqualTo(20.0);
      assertThat(sweep.cells()).isEqualTo(8);
    }
    // The A/B takes neither: its rates are its own.
    assertThat(fixed.rounds().get(0).settings().latencyRatePerS()).isNull();
    assertThat(Explain.differences(own, fixed)).contains("rounds");
  }

  @Test
  void everyBadOptionAtOnce() {
    assertThatThrownBy(
            () ->
                on("reference")
                    .repeats(1)
                    .delaysMs(List.of(4.0, 2.0))
                    .identities(List.of(0))
                    .sweepRate(-1.0)
                    .build())
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining("repeats must be >= 2")
        .hasMessageContaining("identities must each be in [1, ")
        .hasMessageContaining("delays")
        .hasMessageContaining("sweep rate must be a finite number > 0");
    assertThatThrownBy(() -> on("reference").sweepRate(50.0).latencyRate(50.0).build())
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining("latency rate must be below the sweep rate 50.0");
  }

  @Test
  void theRunIsEstablishedOnlyWhenEveryRoundThatRunsIs() {
    ExplainResult.RoundEnd yes = end(Outcome.ESTABLISHED);
    ExplainResult.RoundEnd cannot =
        new ExplainResult.RoundEnd(
            "lock round",
            ExplainPlan.Kind.SPLIT,
            null,
            ExplainResult.Ran.NOT_APPLICABLE,
            null,
            List.of("one community"),
            null);
    assertThat(Explain.outcome(List.of(yes, yes, cannot))).isEqualTo(Outcome.ESTABLISHED);
    assertThat(Explain.outcome(List.of(yes, end(Outcome.NOT_ESTABLISHED))))
        .isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(Explain.outcome(List.of(end(Outcome.NOT_ESTABLISHED), end(Outcome.INFRASTRUCTURE))))
        .isEqualTo(Outcome.INFRASTRUCTURE);
    ExplainResult.RoundEnd unfinished =
        new ExplainResult.RoundEnd(
            "ab",
            ExplainPlan.Kind.AB,
            "ab",
            ExplainResult.Ran.NOT_FINISHED,
            null,
            List.of("x"),
            null);
    assertThat(Explain.outcome(List.of(yes, unfinished))).isEqualTo(Outcome.NOT_ESTABLISHED);
  }

  private static ExplainResult.RoundEnd end(Outcome o) {
    return new ExplainResult.RoundEnd(
        "ab", ExplainPlan.Kind.AB, "ab", ExplainResult.Ran.RAN, o, List.of(), "ab/report.json");
  }
}
