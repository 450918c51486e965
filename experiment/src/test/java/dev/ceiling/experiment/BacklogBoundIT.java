package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.Target;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.generator.Generator;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.ProgressListener;
import dev.ceiling.generator.TargetLoad;
import dev.ceiling.generator.testing.TestRelay;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CellProblems;
import dev.ceiling.verdict.ProblemKind;
import dev.ceiling.verdict.VerdictConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.websocket.api.Session;
import org.junit.jupiter.api.Test;

/**
 * The accepted/offered bound on real sockets: a relay that holds its OKs through the warm-up and
 * the window's first slots, then answers them all at once inside the window, lends the window
 * answers it did not earn. The cell built from the generator's report must never read above 1 and
 * must be excluded as not steady from the client; the same cell judged by the old rule (every
 * answer arriving in the window credited, no window counts) reads above 1 and is not. Decided by
 * counts, not timings: the burst is triggered by the relay's 300th event, and the margins below
 * hold whatever the machine's load does to latencies.
 */
class BacklogBoundIT {
  static final double RATE_PER_S = 200;
  static final double DURATION_S = 2;

  /** 200 warm-up slots and the window's first 100: released when the 300th event arrives. */
  static final int HELD = 300;

  /** Holds every OK until the {@link #HELD}th event, then answers them all and the rest at once. */
  static final class LateAnswers implements TestRelay.Behavior {
    private final List<String> held = new ArrayList<>();
    private boolean released;

    @Override
    public void onEvent(Session s, JsonNode event, int n, TestRelay relay) {
      String id = event.get("id").asText();
      List<String> now;
      synchronized (this) {
        if (!released && n < HELD) {
          held.add(id);
          return;
        }
        now = released ? List.of() : new ArrayList<>(held);
        released = true;
        held.clear();
      }
      for (String h : now) {
        TestRelay.ok(s, h, true, "");
      }
      TestRelay.ok(s, id, true, "");
    }
  }

  static GeneratorReport run(TestRelay relay) throws Exception {
    // One connection, so every held OK goes back on the session it came from.
    TargetLoad load =
        new TargetLoad(
            new Target("a", relay.url(), null, List.of(List.of("h", "bench")), 1, 64),
            RATE_PER_S,
            1,
            2);
    GeneratorConfig cfg =
        GeneratorConfig.builder()
            .load(load)
            .warmup(Duration.ofSeconds(1))
            .duration(Duration.ofSeconds((long) DURATION_S))
            .gracePeriod(Duration.ofSeconds(3))
            .connectTimeout(Duration.ofSeconds(5))
            .inflightCapPerConnection(1000)
            .maxFrameBytes(1 << 20)
            .build();
    return Generator.run(cfg, ProgressListener.NONE);
  }

  @Test
  void aBacklogAnsweredInTheWindowNeverLiftsACellAboveOneAndExcludesIt() throws Exception {
    GeneratorReport report;
    try (TestRelay relay = new TestRelay(new LateAnswers())) {
      report = run(relay);
    }
    Cell cell =
        CellAssembler.assemble(
            new PlannedCell(0, RATE_PER_S, 0, false),
            HalfRuns.OFF,
            false,
            report,
            CellAssembler.none(DURATION_S),
            0.0,
            null,
            null);
    System.out.println("backlog cell counts: " + cell.counts());
    ExperimentIdentity id = HalfRuns.identity(List.of(RATE_PER_S), 1, DURATION_S);
    VerdictConfig cfg = VerdictConfig.defaults();

    // The window's 400 slots earned at most 400 credited answers, whatever arrived in it.
    assertThat(cell.acceptedOverOffered()).isLessThanOrEqualTo(1.0);
    assertThat(cell.creditedInWindow()).isLessThanOrEqualTo(cell.attempted());
    // The held warm-up answers did arrive in the window: the plain arrivals exceed the offer.
    assertThat(cell.acceptedInWindow() / cell.offeredEvents()).isGreaterThan(1.2);
    assertThat(cell.counts().outstandingAtWindowStart()).isGreaterThan(150L);

    List<CellProblem> problems = CellProblems.of(cell, id, cfg, true);
    assertThat(problems)
        .filteredOn(p -> p.kind() == ProblemKind.CLIENT_NOT_STEADY)
        .singleElement()
        .satisfies(p -> assertThat(p.excludesEvidence()).isTrue());
    assertThat(CellProblems.excludes(problems)).isTrue();

    // Partner: the same cell under the old rule credits the backlog and reads it steady.
    Cell old = cell.toBuilder().noWindowCounts().build();
    assertThat(old.acceptedOverOffered()).isGreaterThan(1.2);
    assertThat(CellProblems.of(old, id, cfg, true))
        .extracting(CellProblem::kind)
        .doesNotContain(ProblemKind.CLIENT_NOT_STEADY, ProblemKind.NOT_STEADY);
  }
}
