package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.net.Redaction;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.DownResult;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The delay sweep ({@code ceiling sensitivity}): how many sequential round trips a relay's path
 * makes per event over one TCP link. The relay comes up once with a delay proxy on each upstream
 * its profile declares; the plan (grid, repeats, the offer's rule, seed, declared count) is fixed
 * and written before the first cell; the cells run in the plan's shuffled order, each at its delay
 * and at the offer the rule gives it from the cells before ({@link PointOffers}), saturating,
 * judged by every rule of the A/B; the worker completion rate of each usable cell is a point of the
 * line 1 / C = k d + c, and the proxy's wire turns per audit entry are the independent count.
 * {@code sensitivity.json} is rewritten after every cell.
 *
 * <p>With a contrast ({@link DelaySweepOptions.Builder#contrast}) the same plan then runs again on
 * a relay started with the contrast's parameters, in {@code contrast/}, and {@code contrast.json}
 * (declared beside the plan before the first cell) compares the two arms' lines: the slopes must
 * agree, and the intercept difference is what the parameters cost per event.
 *
 * <p>With {@link DelaySweepOptions.Builder#resume} the sweep continues from the stored file(s)
 * ({@link DelaySweepResume}): the stored plan, a relay started afresh and checked against the
 * stored one, only the cells not yet in the file, and the file keeps every stored cell.
 *
 * <p>With {@link DelaySweepOptions.Builder#attach} it sweeps a relay that is already running (the
 * one a JUnit test class's {@code @WithRelay} brought up, say) through its handle's proxy, and
 * leaves it running for its owner to stop.
 *
 * <pre>{@code
 * DelaySweepResult r = DelaySweep.builder()
 *     .profile(RelayProfile.builtIn("reference-linked"))
 *     .link("db")
 *     .expectRoundTrips(6.0)
 *     .outDir(Path.of("target", "sensitivity"))
 *     .run();
 * }</pre>
 *
 * <p>An instance runs once; not thread-safe.
 */
public final class DelaySweep {
  /** The offer, as a multiple of the relay's predicted hot ceiling at zero added delay. */
  public static final double OFFER_MULTIPLE = 1.5;

  /** The directory, under the output directory, of the ceiling ramp's journals. */
  public static final String RAMP_DIR = "ramp";

  /** The file the sweep writes in its output directory. */
  public static final String REPORT_FILE = "sensitivity.json";

  private final DelaySweepOptions o;

  /** Shared with the contrast arm and, in a sweep per link, with every link's sweep. */
  private final StopSignal stop;

  private final MetricsScraper scraper = SweepRunner.defaultScraper();

  /**
   * The plan every cell follows when it was fixed before this sweep (a contrast arm's), or null.
   */
  private final DelaySweepPlan fixedPlan;

  private DelaySweep(DelaySweepOptions o, DelaySweepPlan fixedPlan, StopSignal stop) {
    this.o = o;
    this.fixedPlan = fixedPlan;
    this.stop = stop;
  }

  public static DelaySweepOptions.Builder builder() {
    return new DelaySweepOptions.Builder();
  }

  static DelaySweep of(DelaySweepOptions o) {
    return new DelaySweep(o, null, new StopSignal());
  }

  /** A sweep that stops when {@code stop} is requested (one link of a sweep per link). */
  static DelaySweep of(DelaySweepOptions o, StopSignal stop) {
    return new DelaySweep(o, null, stop);
  }

  /**
   * Runs the sweep. Once the relay is up nothing throws: an infrastructure failure ends the sweep
   * with {@link Outcome#INFRASTRUCTURE} and the cells measured until then in the file.
   *
   * @throws ExperimentException when the output directory cannot be made or already holds a report,
   *     or a resume is refused before a relay starts (a missing, unreadable or complete file, or
   *     options that declare another sweep)
   */
  public DelaySweepResult run() throws ExperimentException {
    // Ctrl-C or SIGTERM, from before the first relay starts to after the last stops: stop after
    // the running cell (in whichever arm runs), write what was measured and stop the relay (this
    // process owns the proxy it talks through, so the relay must not outlive it); the hook's last
    // resort stops the relays itself if the sweep has not returned within the grace. A running
    // relay's owner handles signals itself.
    DelaySweepResume.Previous before = o.resume() ? DelaySweepResume.read(o) : null;
    ShutdownHook hook = o.attached() != null ? ShutdownHook.none() : Rounds.hook(stop);
    try {
      DelaySweepResult base = baseArm(before);
      return o.contrast().isEmpty() || base.report() == null
          ? base
          : contrast(base, before == null ? null : before.contrast());
    } finally {
      hook.close();
    }
  }

  /** The base arm: measured, resumed, or (a contrast run's, complete) read from its file. */
  private DelaySweepResult baseArm(DelaySweepResume.Previous before) throws ExperimentException {
    if (before != null && before.base().complete()) {
      // A contrast run whose base arm is complete: only the contrast arm is left to measure.
      Path file = o.outDir().resolve(REPORT_FILE);
      o.progress().warning("the base arm is complete in " + file + "; not measured again");
      DelaySweepReport r = before.base();
      return new DelaySweepResult(
          r, file, r.established() ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED, List.of());
    }
    return runArm(before == null ? null : before.base());
  }

  /**
   * The contrast arm, once the base arm has measured: the same plan on a relay started with the
   * contrast's parameters, then both arms compared in {@code contrast.json}. A base arm that did
   * not complete has nothing to compare with, so the contrast arm does not run. {@code previous} is
   * the contrast arm's stored report a resume continues, or null.
   */
  private DelaySweepResult contrast(DelaySweepResult base, DelaySweepReport previous) {
    DelaySweepPlan plan = base.report().plan();
    List<String> problems = new ArrayList<>(base.problems());
    DelaySweepResult arm = null;
    // Why the contrast arm did not run, or null when it did.
    RoundEnd notRun = null;
    String why = null;
    // The arm shares the stop signal: a request before its relay starts keeps the relay down, and
    // the hook's last resort reaches its relay through the signal.
    DelaySweep contrastArm = new DelaySweep(o.forContrast(), plan, stop);
    if (!base.report().complete() || stop.requested()) {
      notRun =
          base.report().complete()
              ? RoundEnd.interrupted()
              : RoundEnd.failed("the base arm did not complete");
      why = notRun.reason();
    } else {
      o.progress().contrastArm(o.contrast());
      try {
        arm = contrastArm.runArm(previous);
        why = arm.report() == null ? String.join("; ", arm.problems()) : null;
      } catch (ExperimentException e) {
        notRun = RoundEnd.failed(e.getMessage());
        why = notRun.reason();
      }
    }
    if (arm != null) {
      arm.problems().forEach(p -> problems.add("contrast arm: " + p));
    } else if (why != null && base.report().complete()) {
      problems.add("contrast arm: " + why);
    }
    DelaySweepContrast contrast =
        DelaySweepContrast.of(
            plan, o.contrast(), base.report(), arm == null ? null : arm.report(), why);
    Path file = o.outDir().resolve(DelaySweepContrast.FILE);
    Outcome outcome = DelaySweepContrast.outcome(base, arm, notRun, contrast);
    try {
      Json.write(file, contrast);
    } catch (IOException e) {
      problems.add("cannot write " + file + ": " + e);
      outcome = Outcome.INFRASTRUCTURE;
    }
    return new DelaySweepResult(base.report(), base.file(), outcome, problems, contrast, file);
  }

  /**
   * One arm: the relay up, the plan, the cells, the relay down. {@code previous} is the arm's
   * stored report a resume continues, or null for a new arm.
   */
  private DelaySweepResult runArm(DelaySweepReport previous) throws ExperimentException {
    try {
      Files.createDirectories(o.outDir().resolve("journals"));
    } catch (IOException e) {
      throw new ExperimentException("cannot create output directory " + o.outDir() + ": " + e, e);
    }
    Path file =
        previous != null
            ? o.outDir().resolve(REPORT_FILE)
            : Rounds.outputFile(o.outDir(), REPORT_FILE, "delay sweep", true);
    Path rigDir = o.outDir().resolve("rig");
    if (o.resume()) {
      // A session killed without its teardown (SIGKILL) leaves its relay running, cut off from
      // the proxy that died with it: stop it, if and only if the pid file proves it is the one
      // this directory's rig started (a contrast arm's too, killed before its first cell).
      DownResult left = Rig.down(rigDir);
      if (left.pid() != null) {
        o.progress().warning("the interrupted session's relay: " + left.message());
      }
      if (!left.clean()) {
        return DelaySweepResult.failed(
            Outcome.INFRASTRUCTURE,
            "the interrupted session's relay in " + rigDir + " is still there: " + left.message());
      }
    }
    if (o.attached() != null) {
      // Someone else's relay: its owner stops it and handles signals; interrupt() stops the sweep.
      o.progress().rigUp(o.attached().descriptor().arm(), o.attached().descriptor());
      return measure(o.attached(), file, previous);
    }
    UpOptions up =
        UpOptions.of(o.profile(), o.profile().treatmentArm(), rigDir)
            .withReset(true)
            .withOverrides(o.relayOverrides())
            .withUpstreamMode(UpOptions.UpstreamMode.PROXIED);
    if (stop.requested()) {
      return DelaySweepResult.failed(
          Outcome.NOT_ESTABLISHED, RoundEnd.interrupted().reason() + " before the relay");
    }
    return Rounds.withRelay(
        up,
        stop,
        o.progress(),
        handle -> measure(handle, file, previous),
        problem -> DelaySweepResult.failed(Outcome.INFRASTRUCTURE, problem));
  }

  /** Asks the sweep to stop after the running cell (what the shutdown hook does on a signal). */
  public void interrupt() {
    stop.request();
  }

  /** The relay is up: plan, write the plan, the cells, the last write. */
  private DelaySweepResult measure(RigHandle handle, Path file, DelaySweepReport previous) {
    RigDescriptor rig = Redaction.redact(handle.descriptor());
    if (DelayLink.of(handle, o.link(), scraper) == null) {
      return DelaySweepResult.failed(
          Outcome.BAD_INPUT,
          "link '"
              + o.link()
              + "' has no delay proxy or delay control; the rig opened "
              + DelayLink.names(handle));
    }
    // A resume reuses the stored plan, its ramp included: a ramp measured afresh would be chosen
    // after seeing cells.
    DelaySweepPlan plan = previous != null ? previous.plan() : fixedPlan;
    if (plan == null) {
      try {
        plan = o.plan(handle.descriptor());
      } catch (AutoRates.MissingCeilingException e) {
        // The relay predicts no ceiling and no rate was given: measure it first by the ramp.
        CeilingRamp ramp;
        try {
          ramp =
              RampMeasure.run(
                  o.ceilingRamp(),
                  scraper,
                  o.profile(),
                  handle.descriptor(),
                  o.sweepOptions(),
                  o.outDir().resolve(RAMP_DIR),
                  o.progress(),
                  stop::requested);
        } catch (MetricsException | OneCellSweep.CellFailed f) {
          return DelaySweepResult.failed(
              Outcome.INFRASTRUCTURE, "the ceiling ramp failed: " + f.getMessage());
        }
        if (stop.requested()) {
          return DelaySweepResult.failed(
              Outcome.NOT_ESTABLISHED,
              RoundEnd.interrupted().reason() + " during the ceiling ramp");
        }
        if (ramp.ceilingPerS() == null) {
          // No plan can rest on it, so no sweep file: the steps go to ramp.json for the reader.
          Path rampFile = o.outDir().resolve(RampMeasure.FILE);
          try {
            Json.write(rampFile, ramp);
          } catch (IOException w) {
            o.progress().warning("cannot write " + rampFile + ": " + w);
          }
          return DelaySweepResult.failed(
              Outcome.NOT_ESTABLISHED,
              RampMeasure.noCeiling(ramp, "--rate") + " (" + rampFile + ")");
        }
        plan = o.plan(handle.descriptor(), ramp);
      }
    }
    if (previous != null) {
      String refused = DelaySweepResume.refusal(o, previous, rig);
      if (refused != null) {
        return DelaySweepResult.failed(Outcome.BAD_INPUT, refused);
      }
      o.progress().resuming(previous);
    }
    int toRun = plan.cells().size() - (previous == null ? 0 : previous.cells().size());
    // A contrast arm that follows runs the whole plan again.
    Duration takes = o.estimate(toRun, plan);
    if (fixedPlan == null && !o.contrast().isEmpty()) {
      takes = takes.plus(o.estimate(plan.cells().size(), plan));
    }
    o.progress().planned(plan, takes);
    if (fixedPlan == null && previous == null && !o.contrast().isEmpty()) {
      // The contrast is declared beside the plan before the first cell, like the plan itself.
      Path declared = o.outDir().resolve(DelaySweepContrast.FILE);
      try {
        Json.write(declared, DelaySweepContrast.of(plan, o.contrast(), null, null, null));
      } catch (IOException e) {
        return DelaySweepResult.failed(
            Outcome.INFRASTRUCTURE, "cannot write " + declared + ": " + e);
      }
    }
    return cells(handle, file, plan, previous);
  }

  /** The plan's cells not yet in the file, in its order; the file rewritten after each. */
  private DelaySweepResult cells(
      RigHandle handle, Path file, DelaySweepPlan plan, DelaySweepReport previous) {
    RigDescriptor rig = Redaction.redact(handle.descriptor());
    DelayLink link = DelayLink.of(handle, o.link(), scraper);
    // Each cell's one-cell sweep offers what the plan's rule gives it (the first offer here).
    ExperimentIdentity oneCell =
        Identities.of(
            o.profile(),
            handle.descriptor(),
            List.of(plan.offeredPerS()),
            plan.durationS(),
            1,
            null,
            o.sweepOptions().measurement());
    DelaySweepFile report = reportFile(file, rig, plan, previous);
    RoundEnd end;
    Path journals = o.outDir().resolve("journals");
    if (previous != null) {
      int last = DelaySweepResume.sessions(previous).size();
      try {
        DelaySweepResume.setAsideUnfinished(journals, plan, report.measuredSequences(), last)
            .forEach(o.progress()::warning);
      } catch (IOException e) {
        return DelaySweepResult.failed(
            Outcome.INFRASTRUCTURE, "cannot set aside an unfinished cell's journal: " + e);
      }
    }
    try {
      report.write(RoundEnd.running());
      DelayCells cells =
          new DelayCells(
              scraper,
              o.progress(),
              stop::requested,
              handle.descriptor(),
              link,
              o.sweepOptions(),
              journals,
              handle.proxies());
      java.util.Set<Integer> done = report.measuredSequences();
      end =
          Rounds.cells(
              plan.cells(),
              c -> done.contains(c.sequence()),
              stop,
              c -> {
                // Each cell's offer follows the rule from the cells measured before it; under a
                // point ramp the cell is a ramp at its delay, its offers the ramp's rule's.
                double offer = PointOffers.offer(plan, report.last().cells(), c.addedDelayMs());
                report.add(
                    cells.measure(
                        c,
                        oneCell.withRates(List.of(offer)),
                        plan.latencyOfferedPerS() == null
                            ? null
                            : oneCell.withRates(List.of(plan.latencyOfferedPerS())),
                        plan.pointRamp()));
                o.progress().measured(report.write(RoundEnd.running()));
              });
    } catch (MetricsException e) {
      // The first scrape, before any cell, failed.
      end = Rounds.failedBy(e);
    } catch (IOException e) {
      return DelaySweepResult.failed(Outcome.INFRASTRUCTURE, "cannot write " + file + ": " + e);
    } finally {
      // For whoever uses the relay next (an attached relay's owner, the next link's sweep); a
      // failure is warned about, not the sweep's: every cell ran at its planned delay.
      String left = link.resetToZero();
      if (left != null) {
        o.progress().warning("link '" + o.link() + "' was left at its last delay: " + left);
      }
    }
    return report.finish(end);
  }

  /** The file of this session: a new one, or the stored one with its cells and sessions. */
  private DelaySweepFile reportFile(
      Path file, RigDescriptor rig, DelaySweepPlan plan, DelaySweepReport previous) {
    var measurement = o.sweepOptions().measurement();
    return previous == null
        ? DelaySweepFile.first(
            file,
            o.profile().name(),
            rig,
            DelaySweepResume.judged(o.profile(), rig, plan, measurement),
            plan,
            o.verdictConfig())
        : DelaySweepFile.resumed(
            file,
            previous,
            DelaySweepResume.judged(o.profile(), previous.rig(), plan, previous.measurement()),
            o.verdictConfig(),
            rig.rigId());
  }
}
