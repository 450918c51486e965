package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentResult;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.verdict.ExcludedCell;
import dev.ceiling.verdict.FailureKind;
import dev.ceiling.verdict.ProblemKind;
import dev.ceiling.verdict.Verdict;
import dev.ceiling.verdict.VerdictReport;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's trap on a relay without metrics: the reference relay with its admission limiter at the
 * defaults (10 events/s per identity, answered by NOTICE without OK) and its metrics hidden from
 * the profile. Only what the generator sees can show the contamination, and it must: every cell
 * excluded for NOTICES, naming what the relay said, and no comparable rate, so no knee is ever
 * reported as a ceiling.
 *
 * <p>It needs nothing of the CLI, but runs in the cli module's two test JVMs rather than in the e2e
 * module's one: there it costs the cli lane half its time, and Maven's other lane (junit, e2e, the
 * consumer example), the longer, all of it (docs/PERFORMANCE.md, "The test suite").
 *
 * <p>One rate, 400/s, two repeats. Over 8 identities that is 50/s each against the default budget
 * of 50 per identity per 5 s fixed window: a budget lasts 1 s of load, and a cell offers 2.5 s (0.5
 * s warm-up, 2 s window). At most one window boundary falls in a cell, splitting its load in two
 * parts of which one is over 1.25 s long, so every cell meets refusals inside its measurement
 * window (from 0.5 s in) wherever the boundary falls. (At 300/s, the plan's other rate, a budget
 * lasts 1.33 s, and a boundary 1.2 s into a cell that follows an idle gap leaves both parts under
 * budget: no refusal is certain there.) The second rate sent more of the same refusals and checked
 * nothing this one does not: every assertion is per cell (each excluded for its NOTICEs, or none
 * with NOTICEs in the partner) or holds for any number of rates (no comparable rate). Two repeats
 * stay, so that "no comparable rate" comes from the exclusions and not from a rate with too few
 * cells.
 */
class LimiterTrapWithoutMetricsIT {
  @TempDir Path dir;

  /** The A/B on the relay without metrics, its limiter at the defaults or raised. */
  private ExperimentResult run(boolean limiterAtDefaults) throws Exception {
    return Experiment.builder()
        .profile(Relays.referenceWithoutMetrics(dir, limiterAtDefaults))
        .relayOverrides(Relays.freePorts(Relays.UNDELAYED))
        // 8 identities at 400/s: each five times the default 10/s, so the limiter at the defaults
        // answers NOTICEs inside every window (the class's comment says why).
        .rates(400)
        .duration(Duration.ofSeconds(2))
        .repeats(2)
        .sweepOptions(quick(dir))
        .outDir(dir)
        .installShutdownHook(false)
        .run();
  }

  @Test
  void everyCellIsExcludedForItsNoticesAndNoRateIsComparable() throws Exception {
    ExperimentResult r = run(true);
    VerdictReport v = r.report().verdict();
    assertThat(r.outcome()).isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(v.clientSideEvidence()).isTrue();
    assertThat(v.label()).isEqualTo(VerdictReport.FAIL);
    assertThat(v.excluded()).hasSize(r.report().treatment().cells().size() * 2);
    for (ExcludedCell e : v.excluded()) {
      assertThat(e.reasons())
          .as("reasons of %s", e.cell())
          .anySatisfy(
              p -> {
                assertThat(p.kind()).isEqualTo(ProblemKind.NOTICES);
                // The relay's own words, so the operator sees it was the limiter.
                assertThat(p.message()).contains("(the first: \"").containsIgnoringCase("limit");
              });
    }
    assertThat(v.failures())
        .anySatisfy(f -> assertThat(f.kind()).isEqualTo(FailureKind.NO_COMPARABLE_RATE));
    assertThat(v.comparableRates()).isZero();
    assertThat(v.notes()).contains(Verdict.CLIENT_EVIDENCE_NOTE);
  }

  /**
   * The positive control for the test above: the same relay without metrics, its limiter raised,
   * sees no NOTICE in any cell, so the exclusions above come from the limiter and not from the
   * absence of metrics. (Other exclusions, e.g. a generator that a busy machine slows, may occur.)
   */
  @Test
  void withTheLimiterRaisedTheSameCellsAreClean() throws Exception {
    ExperimentResult r = run(false);
    VerdictReport v = r.report().verdict();
    assertThat(v.clientSideEvidence()).isTrue();
    assertThat(v.excluded())
        .as("excluded cells")
        .allSatisfy(
            e ->
                assertThat(e.reasons())
                    .noneSatisfy(p -> assertThat(p.kind()).isEqualTo(ProblemKind.NOTICES)));
    assertThat(r.report().treatment().cells()).allSatisfy(c -> assertThat(c.notices()).isZero());
  }

  private static SweepOptions quick(Path dir) {
    // A short drain: a NOTICE-without-OK relay never answers the events it refused, so each cell
    // waits the whole drain timeout for OKs that never come. The 250 ms send-lag bound is
    // ExperimentIT's: a busy CI machine's scheduler must not exclude these cells before the NOTICEs
    // do.
    return SweepOptions.defaults(dir.resolve("journal.jsonl"))
        .withWarmup(Duration.ofMillis(500))
        .withGrace(Duration.ofSeconds(1))
        .withDrainTimeout(Duration.ofSeconds(2))
        .withSendLagBound(Duration.ofMillis(250));
  }
}
