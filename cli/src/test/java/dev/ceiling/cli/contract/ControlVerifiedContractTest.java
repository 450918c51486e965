package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.MetricRole;
import dev.ceiling.core.testing.HalfRuns;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control arm verified positive, through {@code combine} as a user runs it: a control whose
 * audit worker completed one entry per accepted event is refused; the real control passes; a
 * control that exposes no audit figure passes labelled "not verified positive".
 */
class ControlVerifiedContractTest {
  @TempDir Path dir;

  private static final List<Double> RATES = List.of(100.0, 200.0);

  /** Separating halves whose cells carry the relay's accepted counter, as a real sweep's do. */
  private Path[] halves(UnaryOperator<Cell> control) throws Exception {
    ExperimentIdentity id = Halves.identity(RATES, 3);
    HalfRun on = Halves.half(id, Halves.ON, new double[][] {{1.0, 0.99, 1.0}, {0.80, 0.81, 0.79}});
    HalfRun off = Halves.half(id, Halves.OFF, new double[][] {{1.0, 1.0, 0.99}, {1.0, 0.99, 1.0}});
    Path t = dir.resolve("half-on.json");
    Path c = dir.resolve("half-off.json");
    Json.write(t, mapCells(on, ControlVerifiedContractTest::withAcceptedCounter));
    Json.write(c, mapCells(off, cell -> control.apply(withAcceptedCounter(cell))));
    return new Path[] {t, c};
  }

  private static Cell withAcceptedCounter(Cell c) {
    Map<String, Double> d = new HashMap<>(c.counterDeltas());
    d.put(MetricRole.EVENTS_ACCEPTED.key(), (double) c.acceptedInWindow());
    return c.toBuilder().counterDeltas(d).build();
  }

  private static HalfRun mapCells(HalfRun h, UnaryOperator<Cell> f) {
    return HalfRuns.half(h.identity(), h.arm(), h.cells().stream().map(f).toList());
  }

  @Test
  void aControlWhoseAuditPathCompletedEveryEventIsRefused() throws Exception {
    Path[] h = halves(UnaryOperator.identity());
    Path forged = AuditLiveControl.forge(h[1], dir.resolve("half-off-forged.json"));
    Cli.Outcome o = run("combine", h[0].toString(), forged.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.out())
        .contains("verdict: NOT ESTABLISHED (control ran)")
        .contains(
            "NOT ESTABLISHED: fatal in off@100/s#0 (seq 0): in the control arm 'off', which has no"
                + " audit path, the audit completion counter (audit_log_count) moved by 1000 and"
                + " the audit row count (audit_rows) by not exposed");
    // Partner: the real control, unforged, passes and is verified positive.
    Cli.Outcome real = run("combine", h[0].toString(), h[1].toString());
    assertThat(real.code()).as(real.toString()).isEqualTo(ExitCode.ESTABLISHED);
    assertThat(real.out()).contains("verdict: ESTABLISHED (control ran)\n");
  }

  @Test
  void aControlThatExposesNoAuditFigureIsLabelledNotVerifiedPositive() throws Exception {
    Path[] h =
        halves(
            c -> {
              Map<String, Double> d = new HashMap<>(c.counterDeltas());
              d.remove(MetricRole.AUDIT_LOG_COUNT.key());
              return c.toBuilder().counterDeltas(d).build();
            });
    Cli.Outcome o = run("combine", h[0].toString(), h[1].toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.ESTABLISHED);
    assertThat(o.out())
        .contains("verdict: ESTABLISHED (control ran, not verified positive)\n")
        .contains("note: the control was not verified positive: 6 control cell(s)");
  }

  @Test
  void theConsoleSummaryEndsWithTheConfiguredLimits() throws Exception {
    Path[] h = halves(UnaryOperator.identity());
    Cli.Outcome o = run("combine", h[0].toString(), h[1].toString());
    List<String> lines = o.out().lines().toList();
    assertThat(lines.subList(lines.size() - 2, lines.size()))
        .containsExactly(
            "limits: limiter human_ws_events_per_sec=100000",
            "limits: audit queue capacity " + HalfRuns.CAPACITY);
  }
}
