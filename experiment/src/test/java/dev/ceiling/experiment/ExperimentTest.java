package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.rig.DownResult;
import dev.ceiling.rig.RelayProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The experiment's phases with a fake rig and a fake sweep: no relay, no sockets. Every test that
 * asserts a run goes on has a partner in which the same phase must stop it.
 */
class ExperimentTest {
  static final List<Double> RATES = List.of(100.0, 200.0);

  @TempDir Path dir;
  final FakeRig rig = new FakeRig();
  final FakeSweep sweep = new FakeSweep();

  private Path out() {
    return dir.resolve("run");
  }

  /** The experiment these options make with the fake rig {@code r} and the fake sweep. */
  private Experiment experiment(Experiment.Builder b, FakeRig r) throws Exception {
    return b.build(r, sweep);
  }

  private Experiment.Builder options() throws Exception {
    return Experiment.builder()
        .profile(RelayProfile.builtIn("reference"))
        .rates(RATES)
        .duration(Duration.ofSeconds(1))
        .repeats(2)
        .outDir(out())
        .installShutdownHook(false)
        .alsoRender("report.txt", report -> "verdict " + report.verdict().established());
  }

  private HalfRun half(String arm) throws Exception {
    return Json.read(out().resolve("half-" + arm + ".json"), HalfRun.class);
  }

  @Test
  void bothArmsAreSweptJudgedAndWrittenAndEveryRelayIsStopped() throws Exception {
    ExperimentResult r = experiment(options(), rig).run();

    assertThat(r.problems()).isEmpty();
    assertThat(rig.started).containsExactly("on", "off");
    assertThat(rig.running()).isEmpty();
    assertThat(sweep.calls).extracting(FakeSweep.Call::arm).containsExactly("on", "off");
    assertThat(sweep.calls.get(0).options().journal()).isEqualTo(out().resolve("journal-on.jsonl"));
    assertThat(sweep.calls.get(1).identity()).isEqualTo(sweep.calls.get(0).identity());
    assertThat(half("on").cells()).hasSize(4);
    assertThat(half("off").complete()).isTrue();
    assertThat(r.reportJson()).isEqualTo(out().resolve("report.json")).exists();
    assertThat(r.extraFiles()).containsExactly(out().resolve("report.txt"));
    assertThat(r.report().control()).isNotNull();
    assertThat(r.outcome())
        .isEqualTo(
            r.report().verdict().established() ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED);
  }

  @Test
  void aControlRelayThatDiffersFromTheTreatmentsIsNotSwept() throws Exception {
    FakeRig differs =
        new FakeRig(
            arm ->
                HalfRuns.rig(arm, arm.equals("off") ? 2000 : HalfRuns.CAPACITY, HalfRuns.LIMITER));

    ExperimentResult r = experiment(options(), differs).run();

    assertThat(r.outcome()).isEqualTo(Outcome.BAD_INPUT);
    assertThat(r.problems())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("the control arm 'off' does not share the treatment arm's identity")
        .contains("queue");
    assertThat(sweep.calls).extracting(FakeSweep.Call::arm).containsExactly("on");
    assertThat(differs.started).containsExactly("on", "off");
    assertThat(differs.running()).isEmpty();
    // What was measured is still judged and written: the treatment's half on its own.
    assertThat(r.reportJson()).exists();
    assertThat(out().resolve("half-off.json")).doesNotExist();
  }

  @Test
  void aControlRelayThatDoesNotStartIsInfrastructureAndTheTreatmentIsStillWritten()
      throws Exception {
    rig.refuse.put("off", "exited 1 before READY");

    ExperimentResult r = experiment(options(), rig).run();

    assertThat(r.outcome()).isEqualTo(Outcome.INFRASTRUCTURE);
    assertThat(r.problems())
        .containsExactly("relay for arm 'off' did not start: exited 1 before READY");
    assertThat(half("on").complete()).isTrue();
    assertThat(r.reportJson()).exists();
    assertThat(r.report().control()).isNull();
    assertThat(rig.running()).isEmpty();
  }

  @Test
  void aTreatmentRelayThatDoesNotStartLeavesNothingToWrite() throws Exception {
    rig.refuse.put("on", "port 7777 in use");

    ExperimentResult r = experiment(options(), rig).run();

    assertThat(r.outcome()).isEqualTo(Outcome.INFRASTRUCTURE);
    assertThat(r.problems()).containsExactly("relay for arm 'on' did not start: port 7777 in use");
    assertThat(r.report()).isNull();
    assertThat(r.reportJson()).isNull();
    assertThat(r.extraFiles()).isEmpty();
    assertThat(sweep.calls).isEmpty();
    assertThat(rig.started).isEmpty();
  }

  @Test
  void aRelayThatWasNotStoppedStopsTheExperimentBeforeTheNextArm() throws Exception {
    rig.stopOutcome = DownResult.Outcome.STILL_ALIVE;

    ExperimentResult r = experiment(options(), rig).run();

    assertThat(r.outcome()).isEqualTo(Outcome.INFRASTRUCTURE);
    assertThat(r.problems())
        .containsExactly("the relay of arm 'on' was not stopped: relay of on: STILL_ALIVE");
    assertThat(rig.started).containsExactly("on");
    assertThat(half("on").complete()).isTrue();
  }

  private static RigDescriptor withCeiling(String arm, String ceiling) {
    return TestDescriptors.attached(
        arm,
        Map.of(),
        ceiling == null ? Map.of() : Map.of(Experiment.PREDICTED_CEILING_KEY, ceiling));
  }

  @Test
  void automaticRatesComeFromTheFirstRelaysCalibrationAndServeBothArms() throws Exception {
    FakeRig calibrated = new FakeRig(arm -> withCeiling(arm, "1000"));

    ExperimentResult r =
        experiment(options().ratesFromCalibration(0.5, 0.8, 0.8001), calibrated).run();

    assertThat(r.problems()).isEmpty();
    // 0.8 and 0.8001 round to the same rate: one grid point.
    assertThat(sweep.calls.get(0).identity().ratesPerS()).containsExactly(500.0, 800.0);
    assertThat(sweep.calls.get(1).identity().ratesPerS()).containsExactly(500.0, 800.0);
  }

  /**
   * Without a calibrated ceiling the first arm's relay is ramped (one-cell sweeps at the rule's
   * offers); the fake's cells carry no window counts, so no step can be read, the ramp finds no
   * ceiling, and the run ends with one clear line and a verdict code, the relay stopped.
   */
  @Test
  void automaticRatesWithoutACalibratedCeilingRampFirstAndSayWhenTheRampFindsNone()
      throws Exception {
    FakeRig uncalibrated = new FakeRig(arm -> withCeiling(arm, null));

    ExperimentResult r = experiment(options().ratesFromCalibration(0.5), uncalibrated).run();

    assertThat(r.outcome()).isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(r.problems()).hasSize(1);
    assertThat(r.problems().get(0))
        .startsWith("the relay predicts no ceiling and the ramp found no ceiling: 9 steps up to")
        .endsWith("; no offer can be placed from it: pass --rates");
    assertThat(sweep.calls)
        .extracting(c -> c.identity().ratesPerS())
        .containsExactlyElementsOf(
            RampMeasure.DEFAULT_RULE.offers().stream().map(List::of).toList());
    assertThat(uncalibrated.started).containsExactly("on");
    assertThat(uncalibrated.running()).isEmpty();
  }

  @Test
  void aSweepInterruptedAfterTwoCellsWritesAnIncompleteHalfAndTakesTheRelayDown() throws Exception {
    AtomicReference<Experiment> experiment = new AtomicReference<>();
    // Ctrl-C's effect, while the second cell runs.
    sweep.afterCell =
        n -> {
          if (n == 2) {
            experiment.get().requestStop();
          }
        };
    experiment.set(experiment(options(), rig));

    ExperimentResult r = experiment.get().run();

    assertThat(r.outcome()).isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(r.problems())
        .containsExactly("arm 'on' is incomplete: interrupted after 2 of 4 cells");
    HalfRun on = half("on");
    assertThat(on.complete()).isFalse();
    assertThat(on.cells()).hasSize(2);
    assertThat(rig.started).containsExactly("on");
    assertThat(rig.running()).isEmpty();
    assertThat(r.reportJson()).exists();
  }

  @Test
  void aStopRequestedBeforeTheRunStartsNoRelay() throws Exception {
    Experiment e = experiment(options(), rig);
    e.requestStop();

    ExperimentResult r = e.run();

    assertThat(r.outcome()).isEqualTo(Outcome.NOT_ESTABLISHED);
    assertThat(r.problems()).containsExactly("interrupted before arm 'on' started");
    assertThat(rig.started).isEmpty();
    assertThat(r.reportJson()).isNull();
  }

  @Test
  void aSweepsInfrastructureFailureKeepsItsCellsAndStopsTheExperiment() throws Exception {
    sweep.failure = new java.io.IOException("metrics unreachable");

    ExperimentResult r = experiment(options(), rig).run();

    assertThat(r.outcome()).isEqualTo(Outcome.INFRASTRUCTURE);
    assertThat(r.problems())
        .containsExactly("infrastructure failure in arm 'on': metrics unreachable");
    assertThat(half("on").cells()).hasSize(1);
    assertThat(rig.running()).isEmpty();
  }

  /**
   * An unchecked exception inside an arm (a bug, or a jar replaced under a running JVM, as once
   * happened) reaches the caller, and the arm's relay is stopped before it does: the caller's JVM
   * may go on running for a long time (a test runner, a service), and no shutdown hook ends it.
   */
  @Test
  void anUncheckedExceptionInAnArmStopsItsRelayAndReachesTheCaller() throws Exception {
    sweep.crash = new IllegalStateException("cannot serialize the journal line");

    assertThatThrownBy(() -> experiment(options(), rig).run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot serialize the journal line");
    assertThat(rig.started).containsExactly("on");
    assertThat(rig.running()).isEmpty();
  }

  /** The identity a journal of the fake rig's relay records for these options. */
  private ExperimentIdentity identity(RigDescriptor r) throws Exception {
    return Identities.of(
        RelayProfile.builtIn("reference"),
        r,
        RATES,
        1.0,
        2,
        null,
        SweepOptions.defaults(Path.of("journal.jsonl")).measurement());
  }

  @Test
  void aResumeOnTheSameRelayContinuesTheJournals() throws Exception {
    java.nio.file.Files.createDirectories(out());
    Journal.create(out().resolve("journal-on.jsonl"), identity(HalfRuns.rig("on")), "on").close();

    ExperimentResult r = experiment(options().resume(true), rig).run();

    assertThat(r.problems()).isEmpty();
    assertThat(sweep.calls.get(0).options().resume()).isTrue();
    assertThat(sweep.calls.get(1).options().resume()).isFalse();
    assertThat(rig.downs).containsExactly(out().resolve("rig-on"), out().resolve("rig-off"));
  }

  @Test
  void aResumeOnADifferentRelayIsRefusedBeforeTheSweep() throws Exception {
    java.nio.file.Files.createDirectories(out());
    Journal.create(out().resolve("journal-on.jsonl"), identity(HalfRuns.rig("on")), "on").close();
    FakeRig other = new FakeRig(arm -> HalfRuns.rig(arm, 2000, HalfRuns.LIMITER));

    ExperimentResult r = experiment(options().resume(true), other).run();

    assertThat(r.outcome()).isEqualTo(Outcome.BAD_INPUT);
    assertThat(r.problems())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("cannot resume arm 'on': the relay now differs from the journals in " + out());
    assertThat(sweep.calls).isEmpty();
    assertThat(other.running()).isEmpty();
  }

  @Test
  void aResumeWithOtherOptionsIsRefusedBeforeAnyRelayStarts() throws Exception {
    java.nio.file.Files.createDirectories(out());
    Journal.create(out().resolve("journal-on.jsonl"), identity(HalfRuns.rig("on")), "on").close();

    assertThatThrownBy(() -> experiment(options().repeats(3).resume(true), rig).run())
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining("repeats journal 2, now 3");
    assertThat(rig.started).isEmpty();
  }

  @Test
  void aNewRunInADirectoryWithJournalsIsRefusedBeforeAnyRelayStarts() throws Exception {
    java.nio.file.Files.createDirectories(out());
    Journal.create(out().resolve("journal-on.jsonl"), identity(HalfRuns.rig("on")), "on").close();

    assertThatThrownBy(() -> experiment(options(), rig).run())
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining("already holds an earlier run");
    assertThat(rig.started).isEmpty();
  }
}
