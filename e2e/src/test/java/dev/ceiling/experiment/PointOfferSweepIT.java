package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.rig.RelayProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-point offer on a real sweep: the reference relay through the delay proxy on its H2 link,
 * no rate given. The first cells get the first offer (1.5 x the relay's predicted hot ceiling);
 * once the used cells span both delays, each cell gets what the line through them predicts at its
 * delay, so the cells at 6 ms are offered less than the first offer and than the 1 ms cells.
 * Re-reading the file applies the rule again to every cell, so an offer the rule does not give
 * fails the read.
 *
 * <p>In the e2e module, beside the cli module's tests rather than before them (it needs the sweep's
 * package-private entry points, hence the package): about two minutes, which the experiment module
 * would add to the path every later module waits on.
 *
 * <p>Nothing here is timed: which cells the A/B's rules use, and so each offer, varies with the
 * machine's load, and the assertions hold for any of them. Unsaturated cells are what the rule must
 * avoid, and the used cells are the check: a cell offered too little is not busy.
 */
class PointOfferSweepIT {
  @TempDir Path dir;

  /**
   * Seed 39 orders the 8 cells 1, 6, 1, 6, 1, 6, 1, 6 ms: the line can form after the second, and
   * each 6 ms cell but the first can be offered from it. The line misses the last 6 ms cell only if
   * all three 6 ms cells before it are excluded. Beside two busy loops (load 10 to 13) a scrape
   * takes up to 0.55 s, over a tenth of a 2 s or 3 s window, which excludes its cell, so the
   * windows are 6 s.
   */
  static final long SEED = 39;

  @Test
  void cellsAfterTheLineAreOfferedWhatItPredictsAndTheFileChecksEveryOffer() throws Exception {
    Path out = dir.resolve("out");
    // 200 calibration runs: the first offer rests on the relay's predicted hot ceiling, which 50
    // runs put at 424/s in one run and 1,443/s in the next.
    Map<String, String> relay =
        Map.of(
            "port", Integer.toString(FreePorts.one()),
            "db_port", Integer.toString(FreePorts.one()),
            "calibration_runs", "200",
            "queue_capacity", "20",
            "exchange_delay_ms", "0");
    // Stopped after its third cell, then resumed on a new relay: the offers go on from the
    // stored cells, under the stored rule.
    AtomicReference<DelaySweep> first = new AtomicReference<>();
    first.set(
        DelaySweep.of(
            sweep(out, relay)
                .progress(
                    new DelaySweepProgress() {
                      @Override
                      public void measured(DelaySweepReport soFar) {
                        if (soFar.cells().size() == 3) {
                          first.get().interrupt();
                        }
                      }
                    })
                .build()));
    DelaySweepResult stopped = first.get().run();
    assertThat(stopped.report()).as(DelaySweepIT.figures(stopped)).isNotNull();
    assertThat(stopped.report().cells()).as(DelaySweepIT.figures(stopped)).hasSize(3);
    DelaySweepResult r = sweep(out, relay).resume(true).run();
    String figures = figures(r);
    System.out.println("PointOfferSweepIT: " + figures);
    DelaySweepReport report = r.report();
    assertThat(report).as(figures).isNotNull();
    assertThat(report.complete()).as(figures).isTrue();
    assertThat(report.sessions()).as(figures).hasSize(2);
    DelaySweepPlan plan = report.plan();
    assertThat(plan.cells())
        .extracting(DelaySweepPlan.Cell::addedDelayMs)
        .containsExactly(1.0, 6.0, 1.0, 6.0, 1.0, 6.0, 1.0, 6.0);
    // The plan declares the rule before the first cell: 1.5 x, and the queue of 20 filled within
    // half the 1 s warm-up (40/s above the prediction).
    assertThat(plan.perPointOffer()).isEqualTo(new DelaySweepPlan.PerPointOffer(1.5, 40));
    // Every offer is the rule's, from the cells before it, or the file would not read.
    assertThat(DelaySweepFile.read(r.file()).cells()).hasSize(8);
    List<DelaySweepCell> cells = report.cells();
    assertThat(cells.get(0).cell().offeredPerS()).isEqualTo(plan.offeredPerS());
    assertThat(cells.get(1).cell().offeredPerS()).isEqualTo(plan.offeredPerS());
    // The rule acted: every cell at 6 ms that the line offered got less than the first offer and
    // less than every 1 ms cell the line offered. Not "less than half the first offer": the rule
    // offers at least the line's ceiling + 40/s, and beside two busy loops the calibration put the
    // first offer as low as 92/s, and the 6 ms cells then get 51/s.
    int lineFrom = firstCellAfterTheLine(cells);
    assertThat(lineFrom).as("the used cells never spanned both delays; %s", figures).isLessThan(8);
    double least1Ms =
        cells.subList(lineFrom, 8).stream()
            .filter(c -> c.planned().addedDelayMs() == 1.0)
            .mapToDouble(c -> c.cell().offeredPerS())
            .min()
            .orElse(plan.offeredPerS());
    for (int i = lineFrom; i < 8; i++) {
      DelaySweepCell c = cells.get(i);
      if (c.planned().addedDelayMs() == 6.0) {
        assertThat(c.cell().offeredPerS())
            .as("cell %d at 6 ms; %s", i, figures)
            .isLessThan(plan.offeredPerS())
            .isLessThan(least1Ms);
      }
    }
    // Offered less, still saturated: each cell the line offered that the rules used was busy.
    assertThat(cells.subList(lineFrom, 8))
        .as(figures)
        .filteredOn(DelaySweepCell::ceilingUsed)
        .isNotEmpty()
        .allSatisfy(c -> assertThat(c.busy()).isTrue());
  }

  private static DelaySweepOptions.Builder sweep(Path out, Map<String, String> relay)
      throws Exception {
    return DelaySweep.builder()
        .profile(RelayProfile.builtIn("reference-linked"))
        .link("db")
        .delaysMs(List.of(1.0, 6.0))
        .repeats(4)
        // 6 s windows: a scrape may take 0.6 s before the cell is excluded. Beside two busy loops
        // scrapes take 0.13-0.55 s, enough to exclude cells of 1, 2 and 3 s windows.
        .duration(Duration.ofSeconds(6))
        .seed(SEED)
        .relayOverrides(relay)
        .sweepOptions(
            SweepOptions.defaults(out.resolve("unused.jsonl"))
                .withWarmup(Duration.ofSeconds(1))
                .withGrace(Duration.ofMillis(500))
                // 250 ms, as the other known answers beside busy loops: a stall of the machine
                // over 100 ms in a window is common at a load of 10.
                .withSendLagBound(Duration.ofMillis(250))
                .withDrainTimeout(Duration.ofSeconds(20)))
        .outDir(out);
  }

  /** The index of the first cell whose cells before it include used ones at both delays. */
  private static int firstCellAfterTheLine(List<DelaySweepCell> cells) {
    for (int i = 0; i < cells.size(); i++) {
      long delays =
          cells.subList(0, i).stream()
              .filter(DelaySweepCell::ceilingUsed)
              .map(c -> c.planned().addedDelayMs())
              .distinct()
              .count();
      if (delays >= 2) {
        return i;
      }
    }
    return cells.size();
  }

  private static String figures(DelaySweepResult r) {
    return DelaySweepIT.figures(r)
        + (r.report() == null
            ? ""
            : "\noffers "
                + r.report().cells().stream()
                    .map(c -> c.planned().addedDelayMs() + " ms: " + c.cell().offeredPerS())
                    .toList());
  }
}
