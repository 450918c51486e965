package dev.ceiling.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.core.testing.SharedNostream;
import dev.ceiling.experiment.CeilingRamp;
import dev.ceiling.experiment.DelaySweep;
import dev.ceiling.experiment.DelaySweepFile;
import dev.ceiling.experiment.DelaySweepProgress;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.experiment.DelaySweepResult;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delay sweep on nostream with no rate given: nostream predicts no ceiling, so the sweep first
 * measures one by the ramp, places its offers from it, and runs to a verdict (established or not,
 * never refused as a usage error). Its file holds the ramp in its plan, and the first offer is the
 * ramp's ceiling placed as a prediction would be (1.5 x, rounded), with latency cells at a tenth of
 * that ceiling (no latency rate is given). It asks for one offer per cell ({@code
 * oneOfferPerCell}): where the ramp saw nostream collapse, a plan would otherwise make each cell a
 * ramp at its delay, which {@link NostreamCeilingSlopeIT} tests and this sweep's verdict does not
 * need. Short cells and a ramp of 2 s windows keep it near two minutes.
 *
 * <p>The partner: a ramp whose maximum (40/s) is below nostream's ceiling finds none, and the sweep
 * ends with a verdict code and one clear line ("the ramp found no ceiling ... pass --rate"), not a
 * usage error.
 *
 * <p>Needs the nostream setup that {@code .ci/run} starts beside the build ({@code
 * CEILING_NOSTREAM_STATUS}, {@code CEILING_NOSTREAM_DIR}; see {@link NostreamWireCountIT}); skips
 * loudly without it.
 */
class NostreamAutoOffersIT {
  @RegisterExtension
  static final SharedNostream NOSTREAM = SharedNostream.fromCi("The ramp on nostream");

  @TempDir Path dir;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void withoutARateTheSweepMeasuresTheCeilingFirstAndRunsToAVerdict() throws Exception {
    // Gentle steps and 2 s windows: nostream's ceiling here is tens of events/s, and a step far
    // above it leaves a backlog that the next steps' windows answer nothing of.
    DelaySweepResult r = sweep(new CeilingRamp.Rule(20, 1.5, 0.1, 12_800, 2), dir.resolve("sweep"));
    System.out.println("NostreamAutoOffersIT: " + r.outcome() + " " + r.problems());
    assertThat(r.outcome())
        .as("%s", r.problems())
        .isIn(Outcome.ESTABLISHED, Outcome.NOT_ESTABLISHED);
    assertThat(r.report()).as("%s", r.problems()).isNotNull();
    // Read back through the sweep's own reader, which also applies the ramp's rule to its steps.
    DelaySweepReport stored = DelaySweepFile.read(r.file());
    CeilingRamp ramp = stored.plan().ceilingRamp();
    assertThat(ramp).as("the file holds the ramp").isNotNull();
    assertThat(ramp.ceilingPerS()).isNotNull();
    assertThat(ramp.steps()).isNotEmpty();
    assertThat(stored.plan().offeredPerS())
        .isEqualTo((double) Math.max(1, Math.round(1.5 * ramp.ceilingPerS())));
    assertThat(stored.plan().offerRule()).contains("the ceiling the ramp measured");
    // No latency rate was given: the plan declares latency cells at a tenth of the ramp's ceiling,
    // and every cell has its latency cell at that offer.
    assertThat(stored.plan().latencyOfferedPerS())
        .isEqualTo((double) Math.max(1, Math.round(0.1 * ramp.ceilingPerS())));
    assertThat(stored.plan().offerRule()).contains("latency cells at 0.1 x the ramp's ceiling");
    assertThat(stored.cells())
        .allSatisfy(
            c ->
                assertThat(c.latency().cell().offeredPerS())
                    .isEqualTo(stored.plan().latencyOfferedPerS()));
    assertThat(stored.cells()).hasSize(stored.plan().cells().size());
    // One offer per cell, as asked, whether or not the ramp saw nostream collapse.
    assertThat(stored.plan().pointRamp()).isNull();
    assertThat(stored.cells()).allSatisfy(c -> assertThat(c.pointRamp()).isNull());
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void partnerARampThatCannotReachTheCeilingEndsWithOneClearLine() throws Exception {
    DelaySweepResult r = sweep(new CeilingRamp.Rule(20, 2, 0.1, 40, 1), dir.resolve("low"));
    assertThat(r.outcome()).isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(r.problems()).hasSize(1);
    assertThat(r.problems().get(0))
        .contains("the ramp found no ceiling")
        .contains("up to 40/s")
        .contains("ramp.json")
        .contains("pass --rate");
  }

  private static DelaySweepResult sweep(CeilingRamp.Rule rule, Path out) throws Exception {
    Map<String, String> env = NOSTREAM.env();
    return DelaySweep.builder()
        .profile(RelayProfile.load(SharedNostream.PROFILE_DIR.resolve("profile.json")))
        .link("db")
        .delaysMs(List.of(0.0, 2.0))
        .repeats(2)
        .duration(Duration.ofSeconds(2))
        .relayOverrides(
            Map.of(
                "nostream_dir", env.get("NOSTREAM_DIR"),
                "pg_port", env.get("NOSTREAM_PG_PORT"),
                "redis_port", env.get("NOSTREAM_REDIS_PORT"),
                "port", Integer.toString(FreePorts.one())))
        .sweepOptions(
            SweepOptions.defaults(out.resolve("journal.jsonl"))
                .withWarmup(Duration.ofSeconds(1))
                .withGrace(Duration.ofSeconds(1)))
        .ceilingRamp(rule)
        .oneOfferPerCell()
        .progress(
            new DelaySweepProgress() {
              @Override
              public void warning(String message) {
                // The ramp's steps and result, for the test's output.
                System.out.println("NostreamAutoOffersIT: " + message);
              }
            })
        .outDir(out)
        .run();
  }
}
