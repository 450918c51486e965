package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.DownResult;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.rig.proxy.DelayProxy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The arms, one after the other, each as a sequence of phases: rig up, rates, identity check,
 * sweep, half-run on disk, rig down. Each phase returns one {@link ArmResult}; the first that stops
 * the experiment ends the loop. What an arm starts, its teardown stops, whatever happened.
 */
final class Arms {
  /**
   * What the arms left.
   *
   * @param halves every half-run measured or reused, by arm, in run order
   * @param problems one line each, in order
   * @param outcome {@link Outcome#ESTABLISHED} when every arm ran to completion, else why they
   *     stopped
   */
  record Result(Map<String, HalfRun> halves, List<String> problems, Outcome outcome) {}

  /**
   * How one arm ended.
   *
   * @param half its half-run, or null when none was written
   * @param identity the identity it was measured under (the next arm's), or null
   * @param problems what went wrong, one line each
   * @param stop why the experiment stops after this arm, or null to go on
   */
  private record ArmResult(
      HalfRun half, ExperimentIdentity identity, List<String> problems, Outcome stop) {
    static ArmResult done(HalfRun half, ExperimentIdentity identity) {
      return new ArmResult(half, identity, List.of(), null);
    }

    static ArmResult stopped(Outcome outcome, String problem) {
      return new ArmResult(null, null, List.of(problem), outcome);
    }

    /** The same, with a relay that was not stopped: nothing may run beside it. */
    ArmResult leftRunning(String problem) {
      List<String> all = new ArrayList<>(problems);
      all.add(problem);
      return new ArmResult(half, identity, all, stop != null ? stop : Outcome.INFRASTRUCTURE);
    }
  }

  private final RunOptions o;
  private final ResumeCheck.Previous previous;
  private final RigControl rigs;
  private final ArmSweep.Factory sweeps;
  private final StopSignal stop;

  Arms(
      RunOptions o,
      ResumeCheck.Previous previous,
      RigControl rigs,
      ArmSweep.Factory sweeps,
      StopSignal stop) {
    this.o = o;
    this.previous = previous;
    this.rigs = rigs;
    this.sweeps = sweeps;
    this.stop = stop;
  }

  /** Runs the arms in order until one stops the experiment. */
  Result run() {
    Map<String, HalfRun> halves = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    ExperimentIdentity identity = null;
    for (String arm : o.arms()) {
      ArmResult r =
          stop.requested()
              ? ArmResult.stopped(
                  Outcome.NOT_ESTABLISHED, "interrupted before arm '" + arm + "' started")
              : arm(arm, identity);
      if (r.half() != null) {
        halves.put(arm, r.half());
      }
      problems.addAll(r.problems());
      if (r.stop() != null) {
        return new Result(halves, problems, r.stop());
      }
      identity = r.identity();
    }
    return new Result(halves, problems, Outcome.ESTABLISHED);
  }

  /** One arm; {@code first} is the identity of the arm before it, or null for the first. */
  private ArmResult arm(String arm, ExperimentIdentity first) {
    Journal.Contents journal = previous.journals().get(arm);
    HalfRun finished = journal == null ? null : ResumeCheck.finishedHalf(o.halfFile(arm), journal);
    if (finished != null) {
      // Already complete on disk: reuse it without starting its relay again.
      o.progress()
          .warning("arm '" + arm + "' is complete in " + o.halfFile(arm) + "; not measured again");
      return ArmResult.done(finished, previous.recorded());
    }
    RigControl.Running rig;
    try {
      rig = up(arm);
    } catch (RigException e) {
      return ArmResult.stopped(
          Outcome.INFRASTRUCTURE, "relay for arm '" + arm + "' did not start: " + e.getMessage());
    }
    ArmResult measured;
    try {
      measured = measure(arm, rig.descriptor(), rig.proxies(), first, journal);
    } catch (RuntimeException | Error e) {
      // A bug (or a broken installation) must not leave the relay running behind the caller,
      // whose JVM may run on for hours with no shutdown hook due: stop it, then let it propagate.
      stop.takeRigDown();
      throw e;
    }
    return tearDown(arm, measured);
  }

  private RigControl.Running up(String arm) throws RigException {
    if (o.resume()) {
      // A run killed without its teardown (SIGKILL, a power cut) leaves its relay running: stop
      // it, if and only if the pid file proves it is the one this directory's rig started.
      DownResult left = rigs.down(o.rigStateDir(arm));
      if (left.pid() != null) {
        o.progress().warning("arm '" + arm + "': the interrupted run's relay: " + left.message());
      }
      if (!left.clean()) {
        throw new RigException(
            RigException.Kind.STATE,
            "the interrupted run's relay in "
                + o.rigStateDir(arm)
                + " is still there: "
                + left.message());
      }
    }
    UpOptions up =
        UpOptions.of(o.profile(), arm, o.rigStateDir(arm))
            .withReset(true)
            .withOverrides(o.relayOverrides());
    RigControl.Running r = rigs.up(up);
    stop.rigUp(r);
    return r;
  }

  /** The arm's relay is up: rates, identity check, sweep. */
  private ArmResult measure(
      String arm,
      RigDescriptor rig,
      Map<String, DelayProxy> links,
      ExperimentIdentity first,
      Journal.Contents journal) {
    o.progress().rigUp(arm, rig);
    ExperimentIdentity armIdentity;
    try {
      armIdentity = o.identity(rig, rates(rig, first));
    } catch (AutoRates.MissingCeilingException e) {
      // The relay predicts no ceiling: the ramp measures it on this (the first) arm's relay, and
      // both arms get the rates placed from it (the second arm reuses the first's identity).
      CeilingRamp ramp;
      try {
        ramp = ramp(rig);
      } catch (OneCellSweep.CellFailed | IOException f) {
        return ArmResult.stopped(
            Outcome.INFRASTRUCTURE, "the ceiling ramp on arm '" + arm + "' failed: " + f);
      }
      if (stop.requested()) {
        return ArmResult.stopped(
            Outcome.NOT_ESTABLISHED, RoundEnd.interrupted().reason() + " during the ceiling ramp");
      }
      if (ramp.ceilingPerS() == null) {
        return ArmResult.stopped(Outcome.NOT_ESTABLISHED, RampMeasure.noCeiling(ramp, "--rates"));
      }
      AutoRates.Range range = new AutoRates.Range(ramp.ceilingPerS(), ramp.ceilingPerS());
      List<Double> rates = range.rates(o.autoRateMultiples());
      o.progress()
          .warning(
              "rates chosen from the ceiling the ramp measured ("
                  + range.text()
                  + ", in "
                  + o.outDir().resolve(RampMeasure.FILE)
                  + "): "
                  + rates);
      armIdentity = o.identity(rig, rates);
    }
    Optional<String> refused = refusal(arm, first, armIdentity);
    if (refused.isPresent()) {
      return ArmResult.stopped(Outcome.BAD_INPUT, refused.get());
    }
    ExperimentIdentity identity =
        previous.recorded() != null ? previous.recorded() : first != null ? first : armIdentity;
    return sweep(arm, rig, links, identity, journal != null);
  }

  /**
   * The grid this arm is measured on: a resumed run's recorded one ("auto" would calibrate afresh
   * and never match), the first arm's, the calibration's, or the fixed one.
   */
  private List<Double> rates(RigDescriptor rig, ExperimentIdentity first)
      throws AutoRates.MissingCeilingException {
    if (previous.recorded() != null) {
      return previous.recorded().ratesPerS();
    }
    if (first != null) {
      return first.ratesPerS();
    }
    if (o.autoRateMultiples() == null) {
      return o.rates();
    }
    AutoRates.Range range = AutoRates.range(rig);
    List<Double> rates = range.rates(o.autoRateMultiples());
    o.progress()
        .warning(
            "rates chosen from the relay's own calibration (predicted worker ceiling "
                + range.text()
                + "; multiples below 1 on its low end, the others on its high end): "
                + rates);
    return rates;
  }

  /**
   * The ramp ({@link RampMeasure#DEFAULT_RULE}) on this arm's relay, each step a one-cell sweep
   * through the arm's sweep seam, journalled in {@code ramp/}; written to {@link RampMeasure#FILE}.
   * A resumed run never gets here: it reuses the rates its journals recorded.
   */
  private CeilingRamp ramp(RigDescriptor rig) throws OneCellSweep.CellFailed, IOException {
    java.nio.file.Path dir = o.outDir().resolve("ramp");
    java.nio.file.Files.createDirectories(dir);
    ArmSweep sweep = sweeps.create(o.progress());
    stop.running(sweep::interrupt);
    CeilingRamp ramp;
    try {
      ramp =
          RampMeasure.run(
              RampMeasure.DEFAULT_RULE,
              o.profile(),
              rig,
              o.sweepOptions().measurement(),
              (identity, i) -> {
                try {
                  SweepRunner.Outcome out =
                      sweep.run(
                          rig,
                          identity,
                          o.sweepOptions()
                              .withJournal(OneCellSweep.journal(dir, i))
                              .withResume(false));
                  if (out.failure() != null || out.half().cells().size() != 1) {
                    throw new OneCellSweep.CellFailed(
                        "ramp step "
                            + i
                            + " was not measured: "
                            + (out.failure() == null
                                ? out.half().incompleteReason()
                                : out.failure()),
                        out.failure());
                  }
                  return out.half().cells().get(0);
                } catch (IOException | ReportFormatException e) {
                  throw new OneCellSweep.CellFailed("ramp step " + i + ": " + e, e);
                }
              },
              o.progress(),
              stop::requested);
    } finally {
      stop.ended();
    }
    Json.write(o.outDir().resolve(RampMeasure.FILE), ramp);
    return ramp;
  }

  /**
   * Why this arm's relay may not be swept, if it may not: it differs from what a resumed run's
   * journals recorded, or from the first arm's relay in more than the arm (a different binary,
   * parameter, limiter or queue measures a different system).
   */
  private Optional<String> refusal(
      String arm, ExperimentIdentity first, ExperimentIdentity armIdentity) {
    ExperimentIdentity recorded = previous.recorded();
    if (recorded != null) {
      List<String> differ = Differences.differences(recorded, armIdentity);
      if (!differ.isEmpty()) {
        return Optional.of(
            "cannot resume arm '"
                + arm
                + "': the relay now differs from the journals in "
                + o.outDir()
                + ": "
                + String.join("; ", differ));
      }
    }
    ExperimentIdentity base = recorded != null ? recorded : first;
    List<String> differ = base == null ? List.of() : Differences.armsDiffer(base, armIdentity);
    if (!differ.isEmpty()) {
      return Optional.of(
          "the control arm '"
              + arm
              + "' does not share the treatment arm's identity, so it was not swept: "
              + String.join("; ", differ));
    }
    return Optional.empty();
  }

  /** Sweeps the arm and writes its half-run, which is kept even when the sweep stopped early. */
  private ArmResult sweep(
      String arm,
      RigDescriptor rig,
      Map<String, DelayProxy> links,
      ExperimentIdentity identity,
      boolean resume) {
    ArmSweep sweep = sweeps.create(o.progress());
    sweep.watchLinks(links);
    stop.running(sweep::interrupt);
    SweepRunner.Outcome swept;
    try {
      swept =
          sweep.run(
              rig, identity, o.sweepOptions().withJournal(o.journalFile(arm)).withResume(resume));
      Json.write(o.halfFile(arm), swept.half());
    } catch (IOException | ReportFormatException e) {
      return ArmResult.stopped(
          Outcome.INFRASTRUCTURE, "cannot write results for arm '" + arm + "': " + e.getMessage());
    } finally {
      stop.ended();
    }
    HalfRun half = swept.half();
    if (swept.failure() != null) {
      String problem =
          "infrastructure failure in arm '" + arm + "': " + swept.failure().getMessage();
      return new ArmResult(half, identity, List.of(problem), Outcome.INFRASTRUCTURE);
    }
    if (!half.complete()) {
      String problem = "arm '" + arm + "' is incomplete: " + half.incompleteReason();
      return new ArmResult(half, identity, List.of(problem), Outcome.NOT_ESTABLISHED);
    }
    return ArmResult.done(half, identity);
  }

  /**
   * Stops the arm's relay. What the stop found is said, not dropped: a relay this run started and
   * could not stop (still alive after SIGKILL, or no longer provably ours) is the user's to end,
   * and a next arm or run on its port would measure it too.
   */
  private ArmResult tearDown(String arm, ArmResult measured) {
    DownResult down = stop.takeRigDown();
    if (down == null || down.clean()) {
      return measured;
    }
    return measured.leftRunning(
        "the relay of arm '" + arm + "' was not stopped: " + down.message());
  }
}
