package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.RelayProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a resumed delay sweep continues, checked before a relay starts: the stored {@code
 * sensitivity.json} of each arm, readable, consistent with its own plan, not yet complete, and
 * declaring the plan these options declare. Once the relay is up, {@link #relayDiffers} is the
 * identity check an experiment's resume makes.
 */
final class DelaySweepResume {
  private DelaySweepResume() {}

  /**
   * What the earlier sessions left.
   *
   * @param base the base arm's report
   * @param contrast the contrast arm's report, or null when it has not measured yet (or there is no
   *     contrast)
   */
  record Previous(DelaySweepReport base, DelaySweepReport contrast) {}

  /**
   * The stored reports a resume of {@code o.outDir()} continues.
   *
   * @throws ExperimentException naming the file when one is missing, unreadable or complete, or
   *     every difference between the stored sweep and the one these options declare
   */
  static Previous read(DelaySweepOptions o) throws ExperimentException {
    Path dir = o.outDir();
    DelaySweepReport base = stored(dir.resolve(DelaySweep.REPORT_FILE));
    List<String> differ = differences(o, base);
    differ.addAll(contrastDifferences(o, base));
    Differences.refuseResume(
        dir,
        "these options declare another sweep than its " + DelaySweep.REPORT_FILE,
        differ,
        "sweep");
    Path contrastFile = dir.resolve(DelaySweepOptions.CONTRAST_DIR).resolve(DelaySweep.REPORT_FILE);
    DelaySweepReport contrast = null;
    if (!o.contrast().isEmpty() && Files.exists(contrastFile)) {
      contrast = stored(contrastFile);
      if (!base.complete() || !contrast.plan().equals(base.plan())) {
        throw new ExperimentException(
            "cannot resume "
                + dir
                + ": "
                + contrastFile
                + (base.complete()
                    ? " holds another plan than the base arm's"
                    : " exists while the base arm is incomplete")
                + ", which a contrast run never writes",
            null);
      }
    }
    DelaySweepReport last = o.contrast().isEmpty() ? base : contrast;
    if (base.complete() && (last != null && last.complete())) {
      throw new ExperimentException(
          "nothing to resume in "
              + dir
              + ": "
              + (o.contrast().isEmpty() ? dir.resolve(DelaySweep.REPORT_FILE) : contrastFile)
              + " is complete ("
              + last.cells().size()
              + " of "
              + last.plan().cells().size()
              + " cells)",
          null);
    }
    return new Previous(base, contrast);
  }

  /** The report in {@code file}, readable and consistent with its own plan. */
  static DelaySweepReport stored(Path file) throws ExperimentException {
    if (!Files.exists(file)) {
      throw new ExperimentException(
          "nothing to resume: "
              + file
              + " does not exist"
              + (Files.isDirectory(file.getParent()) ? "" : " (nor does its directory)"),
          null);
    }
    DelaySweepReport r;
    try {
      r = Json.read(file, DelaySweepReport.class);
    } catch (ReportFormatException e) {
      throw new ExperimentException("cannot resume: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new ExperimentException("cannot resume: " + file + ": " + e.getMessage(), e);
    }
    List<String> problems = new ArrayList<>();
    if (!DelaySweepReport.SCHEMA.equals(r.schema())) {
      problems.add("$.schema is " + r.schema() + ", not " + DelaySweepReport.SCHEMA);
    }
    if (r.rig() == null || r.startedAt() == null) {
      problems.add("$.rig and $.started_at are needed to check the resumed relay");
    }
    if (problems.isEmpty()) {
      // Resumed cells go after these in the plan's order, so the stored ones must be its prefix.
      problems.addAll(DelaySweepFile.problems(r));
    }
    if (!problems.isEmpty()) {
      throw new ExperimentException(
          "cannot resume: " + file + ": " + String.join("; ", problems), null);
    }
    return r;
  }

  /** Where the stored sweep and the one {@code o} declares differ, before a relay starts. */
  static List<String> differences(DelaySweepOptions o, DelaySweepReport stored) {
    List<String> out = new ArrayList<>();
    same(out, "profile", stored.profile(), o.profile().name());
    same(out, "arm", stored.arm(), o.profile().treatmentArm());
    DelaySweepPlan s = stored.plan();
    // The stored offer is the plan's: an offer calibrated afresh would be chosen after seeing
    // cells. A rate given now declares one rate at every delay.
    DelaySweepPlan declared =
        o.rate() != null
            ? o.plan(o.rate(), s.offerRule(), null)
            : o.plan(
                s.offeredPerS(),
                s.offerRule(),
                s.perPointOffer(),
                s.ceilingRamp(),
                o.pointRamp() != null ? o.pointRamp() : o.automaticPointRampOn(s.ceilingRamp()));
    List<String> plan =
        DelaySweepFile.planDifferences(s, declared, "plan.", DelaySweep.REPORT_FILE, "now");
    out.addAll(plan);
    MeasurementSettings m = o.sweepOptions().measurement();
    same(out, "measurement", stored.measurement(), m);
    return out;
  }

  /** A contrast run resumes as a contrast run, with the same parameters, and vice versa. */
  private static List<String> contrastDifferences(DelaySweepOptions o, DelaySweepReport base)
      throws ExperimentException {
    Path declared = o.outDir().resolve(DelaySweepContrast.FILE);
    Map<String, String> now = new TreeMap<>(o.contrast());
    if (!Files.exists(declared)) {
      return now.isEmpty()
          ? List.of()
          : List.of("contrast: none (no " + DelaySweepContrast.FILE + "), now " + now);
    }
    DelaySweepContrast c;
    try {
      c = Json.read(declared, DelaySweepContrast.class);
    } catch (ReportFormatException e) {
      throw new ExperimentException("cannot resume: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new ExperimentException("cannot resume: " + declared + ": " + e.getMessage(), e);
    }
    if (!c.plan().equals(base.plan())) {
      throw new ExperimentException(
          "cannot resume: " + declared + " declares another plan than " + DelaySweep.REPORT_FILE,
          null);
    }
    Map<String, String> then = new TreeMap<>(c.contrastParameters());
    return then.equals(now) ? List.of() : List.of("contrast: " + then + ", now " + now);
  }

  /**
   * The identity check of a resumed arm, once its relay is up: what an experiment's resume compares
   * (Ceiling's and the relay's builds, the relay's parameters, limiter, queue, communities), the
   * stored relay's against this one's. Empty when they agree.
   */
  static List<String> relayDiffers(
      DelaySweepOptions o, DelaySweepReport stored, RigDescriptor redactedNow) {
    ExperimentIdentity recorded =
        judged(o.profile(), stored.rig(), stored.plan(), stored.measurement());
    ExperimentIdentity now =
        judged(o.profile(), redactedNow, stored.plan(), o.sweepOptions().measurement());
    return Differences.differences(recorded, now, DelaySweep.REPORT_FILE, "this relay");
  }

  /** The sweep as the A/B's rules see it: the plan's one rate and duration, a repeat per cell. */
  static ExperimentIdentity judged(
      RelayProfile profile, RigDescriptor rig, DelaySweepPlan plan, MeasurementSettings m) {
    return Identities.of(
        profile,
        rig,
        List.of(plan.offeredPerS()),
        plan.durationS(),
        plan.cells().size(),
        plan.seed(),
        m);
  }

  /** The stored cells as measured, for the rules to judge again with the new ones. */
  static List<DelaySweepAnalysis.Measured> measured(DelaySweepReport stored) {
    return stored.cells().stream()
        .map(
            c ->
                new DelaySweepAnalysis.Measured(
                    c.planned(),
                    c.cell(),
                    c.link(),
                    c.auditEvents(),
                    c.latency() == null
                        ? null
                        : new DelaySweepAnalysis.LatencyMeasured(
                            c.latency().cell(), c.latency().link()),
                    c.pointRamp() == null
                        ? null
                        : new DelaySweepAnalysis.PointMeasured(c.pointRamp(), c.okTrueAnswers())))
        .toList();
  }

  /** The stored sessions; a file written before sessions were recorded had one. */
  static List<DelaySweepSession> sessions(DelaySweepReport stored) {
    if (stored.sessions() != null) {
      return stored.sessions();
    }
    return List.of(
        new DelaySweepSession(
            1,
            stored.startedAt(),
            stored.finishedAt(),
            stored.rig().rigId(),
            stored.cells().stream().map(c -> c.planned().sequence()).toList()));
  }

  /**
   * Moves aside the journal of each planned cell that is not in the file: the cell a killed session
   * was measuring. Its cell is measured again; the partial journal is kept, renamed.
   *
   * @return one line per journal moved
   * @throws IOException when one cannot be moved
   */
  static List<String> setAsideUnfinished(
      Path journals, DelaySweepPlan plan, Set<Integer> measured, int lastSession)
      throws IOException {
    List<String> out = new ArrayList<>();
    for (DelaySweepPlan.Cell c : plan.cells()) {
      Path j = OneCellSweep.journal(journals, c.sequence());
      if (!measured.contains(c.sequence())) {
        // A cell that is a ramp at its delay journals each step beside it (DelayCells): an
        // unfinished one's steps are set aside too, so that its steps are measured afresh.
        String prefix = String.format(Locale.ROOT, "cell-%03d-step-", c.sequence());
        try (var steps = Files.list(journals)) {
          for (Path step :
              steps.filter(p -> p.getFileName().toString().startsWith(prefix)).toList()) {
            String name = step.getFileName().toString();
            Files.move(
                step,
                journals.resolve(
                    name.replace(
                        ".jsonl",
                        String.format(Locale.ROOT, ".unfinished-session-%d.jsonl", lastSession))),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
      if (measured.contains(c.sequence()) || !Files.exists(j)) {
        continue;
      }
      Path aside =
          journals.resolve(
              String.format(
                  Locale.ROOT, "cell-%03d.unfinished-session-%d.jsonl", c.sequence(), lastSession));
      Files.move(j, aside, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      out.add(
          "cell "
              + c.sequence()
              + " was not finished in session "
              + lastSession
              + "; it is measured again, and its partial journal is kept as "
              + aside);
    }
    return out;
  }

  private static void same(List<String> differ, String name, Object stored, Object now) {
    Differences.same(differ, name, stored, now, DelaySweep.REPORT_FILE, "now");
  }

  /** Why the relay now up cannot continue {@code previous}, in words; null when it can. */
  static String refusal(DelaySweepOptions o, DelaySweepReport previous, RigDescriptor now) {
    List<String> differ = relayDiffers(o, previous, now);
    return differ.isEmpty()
        ? null
        : "cannot resume "
            + o.outDir()
            + ": the relay now differs from the one in its "
            + DelaySweep.REPORT_FILE
            + ": "
            + String.join("; ", differ);
  }
}
