package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.verdict.VerdictConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A delay sweep's {@code sensitivity.json}, written and read back by this one type.
 *
 * <p>Written: one session's instance ({@code first}, {@code resumed}) rewrites the file whole
 * (atomically) after every cell from every cell measured so far, an earlier session's included, so
 * a crash at any point leaves the file with every cell measured before it.
 *
 * <p>Read: {@link #read(Path)} gives the report back, refusing a file whose cells were not measured
 * under the plan it stores, or whose plan differs from the one the reader was given. A plan is
 * fixed before the first cell, and its cell order follows from its grid, repeats and seed alone; so
 * a grid, repeat count or seed edited after the first cells no longer gives the order the cells ran
 * in, and a cell measured at a delay the stored grid lacks, for another window, or at another offer
 * than the plan's rule gives it from the cells stored before it names itself. What a file cannot
 * show by itself (a declared count or a margin edited after the run) is caught against the plan the
 * reader is given ({@link #read(Path, DelaySweepPlan)}), which is the check for anything that
 * continues or re-reads a sweep.
 */
public final class DelaySweepFile {
  // ---- Writing: one session's file ----

  private final Path file;
  private final String profile;
  private final RigDescriptor rig;
  private final ExperimentIdentity judged;
  private final DelaySweepPlan plan;
  private final VerdictConfig cfg;
  private final Instant started;
  private final List<DelaySweepSession> earlier;
  private final Instant sessionStarted = Instant.now();
  private final String sessionRigId;
  private final List<DelaySweepAnalysis.Measured> measured = new ArrayList<>();
  private final List<Integer> thisSession = new ArrayList<>();
  private DelaySweepReport last;

  /**
   * @param rig the first session's relay, credentials redacted
   * @param started when the first session started
   * @param earlier the sessions before this one, whose cells {@code measured} holds
   * @param measured the cells the earlier sessions measured, in run order
   * @param sessionRigId the rig id of this session's relay
   */
  private DelaySweepFile(
      Path file,
      String profile,
      RigDescriptor rig,
      ExperimentIdentity judged,
      DelaySweepPlan plan,
      VerdictConfig cfg,
      Instant started,
      List<DelaySweepSession> earlier,
      List<DelaySweepAnalysis.Measured> measured,
      String sessionRigId) {
    this.file = file;
    this.profile = profile;
    this.rig = rig;
    this.judged = judged;
    this.plan = plan;
    this.cfg = cfg;
    this.started = started;
    this.earlier = List.copyOf(earlier);
    this.measured.addAll(measured);
    this.sessionRigId = sessionRigId;
  }

  /** The first session's file: no cell yet. */
  static DelaySweepFile first(
      Path file,
      String profile,
      RigDescriptor rig,
      ExperimentIdentity judged,
      DelaySweepPlan plan,
      VerdictConfig cfg) {
    return new DelaySweepFile(
        file, profile, rig, judged, plan, cfg, Instant.now(), List.of(), List.of(), rig.rigId());
  }

  /**
   * A resumed session's file: the stored report's plan, relay, start and cells, and its sessions
   * followed by this one.
   */
  static DelaySweepFile resumed(
      Path file,
      DelaySweepReport stored,
      ExperimentIdentity judged,
      VerdictConfig cfg,
      String sessionRigId) {
    return new DelaySweepFile(
        file,
        stored.profile(),
        stored.rig(),
        judged,
        stored.plan(),
        cfg,
        stored.startedAt(),
        DelaySweepResume.sessions(stored),
        DelaySweepResume.measured(stored),
        sessionRigId);
  }

  /** The report as last written, or null before the first write. */
  DelaySweepReport last() {
    return last;
  }

  /** The planned sequences measured so far, in any session. */
  Set<Integer> measuredSequences() {
    Set<Integer> out = new TreeSet<>();
    measured.forEach(m -> out.add(m.planned().sequence()));
    return out;
  }

  /** Adds a cell this session measured; {@link #write} puts it in the file. */
  void add(DelaySweepAnalysis.Measured m) {
    measured.add(m);
    thisSession.add(m.planned().sequence());
  }

  /** The last write, and the outcome it reads as. */
  DelaySweepResult finish(RoundEnd end) {
    DelaySweepReport report;
    try {
      report = write(end);
    } catch (IOException e) {
      return DelaySweepResult.failed(Outcome.INFRASTRUCTURE, "cannot write " + file + ": " + e);
    }
    Outcome outcome =
        end instanceof RoundEnd.Interrupted
            ? Outcome.NOT_ESTABLISHED
            : end.failed()
                ? Outcome.INFRASTRUCTURE
                : report.established() ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED;
    return new DelaySweepResult(
        report, file, outcome, end.reason() == null ? List.of() : List.of(end.reason()));
  }

  /** Writes the report of the cells so far, as the sweep stands or ended. */
  DelaySweepReport write(RoundEnd ended) throws IOException {
    int planned = plan.cells().size();
    boolean complete = measured.size() == planned;
    String reason = ended.incompleteReason(measured.size(), planned);
    Instant now = ended.ended() ? Instant.now() : null;
    List<DelaySweepSession> sessions = new ArrayList<>(earlier);
    sessions.add(
        new DelaySweepSession(earlier.size() + 1, sessionStarted, now, sessionRigId, thisSession));
    DelaySweepAnalysis.Progress p =
        new DelaySweepAnalysis.Progress(started, now, complete, reason, sessions);
    DelaySweepReport report =
        DelaySweepAnalysis.report(profile, rig, judged, plan, measured, p, cfg);
    Json.write(file, report);
    last = report;
    return report;
  }

  // ---- Reading: a stored file, checked against its plan ----

  /**
   * The report in {@code file}, when its cells were measured under its stored plan.
   *
   * @throws ExperimentException naming the file and everything that does not match, or why the file
   *     cannot be read
   */
  public static DelaySweepReport read(Path file) throws ExperimentException {
    DelaySweepReport report;
    try {
      report = Json.read(file, DelaySweepReport.class);
    } catch (ReportFormatException e) {
      throw new ExperimentException(e.getMessage(), e);
    }
    if (!DelaySweepReport.SCHEMA.equals(report.schema())) {
      throw new ExperimentException(
          file + ": $.schema must be " + DelaySweepReport.SCHEMA + ", got " + report.schema(),
          null);
    }
    List<String> problems = problems(report);
    if (!problems.isEmpty()) {
      throw new ExperimentException(
          file
              + ": the cells were not measured under the stored plan (edited after the first"
              + " cell?): "
              + String.join("; ", problems),
          null);
    }
    return report;
  }

  /**
   * The report in {@code file}, when its cells were measured under its stored plan and that plan is
   * {@code given}.
   *
   * @throws ExperimentException naming every field of the plan that differs, stored and given
   */
  public static DelaySweepReport read(Path file, DelaySweepPlan given) throws ExperimentException {
    DelaySweepReport report = read(file);
    List<String> differences = planDifferences(report.plan(), given, "", "stored", "given");
    if (!differences.isEmpty()) {
      throw new ExperimentException(
          file + ": the stored plan differs from the one given: " + String.join("; ", differences),
          null);
    }
    return report;
  }

  /**
   * Everything in {@code r} that its cells were not measured under its stored plan: an order that
   * the grid, repeats and seed do not give, a measured cell that is not the plan's cell at its
   * place, at a delay off the grid, offered other than the plan's rule gives it, or measured for
   * another window, and more cells than planned. Empty for a consistent file.
   */
  public static List<String> problems(DelaySweepReport r) {
    List<String> out = new ArrayList<>();
    DelaySweepPlan plan = r.plan();
    List<DelaySweepPlan.Cell> order =
        DelaySweepPlan.shuffledCells(
            plan.delaysMs(), plan.holdoutDelayMs(), plan.repeats(), plan.seed());
    if (!order.equals(plan.cells())) {
      out.add(
          "$.plan.cells: not the order that delays_ms "
              + plan.delaysMs()
              + (plan.holdoutDelayMs() == null ? "" : ", holdout_delay_ms " + plan.holdoutDelayMs())
              + ", repeats "
              + plan.repeats()
              + " and seed "
              + plan.seed()
              + " give");
    }
    if (r.cells().size() > plan.cells().size()) {
      out.add(r.cells().size() + " cells measured, " + plan.cells().size() + " planned");
    }
    for (int i = 0; i < r.cells().size(); i++) {
      cellProblems(i, r.cells().get(i), plan, out);
      offerProblems(i, r.cells(), plan, out);
    }
    if (r.complete() != (r.cells().size() == plan.cells().size())) {
      out.add(
          "$.complete is "
              + r.complete()
              + " with "
              + r.cells().size()
              + " of "
              + plan.cells().size()
              + " cells");
    }
    return out;
  }

  private static void cellProblems(int i, DelaySweepCell c, DelaySweepPlan plan, List<String> out) {
    String at = "$.cells[" + i + "]";
    double d = c.planned().addedDelayMs();
    if (!plan.delaysMs().contains(d) && !plan.isHoldout(c.planned())) {
      out.add(
          at
              + " was measured at "
              + d
              + " ms, which is not on the grid "
              + plan.delaysMs()
              + (plan.holdoutDelayMs() == null
                  ? ""
                  : " nor the holdout's " + plan.holdoutDelayMs() + " ms"));
    }
    if (i < plan.cells().size() && !c.planned().equals(plan.cells().get(i))) {
      out.add(
          at + " ran as " + words(c.planned()) + ", the plan's is " + words(plan.cells().get(i)));
    }
    if (c.cell().sequence() != c.planned().sequence()) {
      out.add(
          at
              + ".cell's sequence "
              + c.cell().sequence()
              + " is not its planned "
              + c.planned().sequence());
    }
    if (!same(c.cell().durationRequestedS(), plan.durationS())) {
      out.add(
          at
              + " was measured for "
              + c.cell().durationRequestedS()
              + " s, the plan's window is "
              + plan.durationS()
              + " s");
    }
  }

  /** A cell offered other than what the plan's rule gives it from the cells stored before it. */
  private static void offerProblems(
      int i, List<DelaySweepCell> cells, DelaySweepPlan plan, List<String> out) {
    DelaySweepCell c = cells.get(i);
    if (plan.pointRamp() != null || c.pointRamp() != null) {
      pointRampProblems(i, c, plan, out);
    }
    double rule = PointOffers.offer(plan, cells.subList(0, i), c.planned().addedDelayMs());
    if (plan.pointRamp() == null && !same(c.cell().offeredPerS(), rule)) {
      out.add(
          "$.cells["
              + i
              + "] was offered "
              + c.cell().offeredPerS()
              + " events/s, the plan's rule gives "
              + rule
              + (plan.perPointOffer() == null ? "" : " from the " + i + " cell(s) before it"));
    }
    // A latency cell is offered the plan's latency offer, and only a plan with one has them.
    Double latency = c.latency() == null ? null : c.latency().cell().offeredPerS();
    if (latency == null
        ? plan.latencyOfferedPerS() != null
        : plan.latencyOfferedPerS() == null || !same(latency, plan.latencyOfferedPerS())) {
      out.add(
          "$.cells["
              + i
              + "].latency was offered "
              + (latency == null ? "nothing (no latency cell)" : latency + " events/s")
              + ", the plan's latency offer is "
              + plan.latencyOfferedPerS());
    }
  }

  /**
   * A cell of a point-ramp plan measured otherwise: without its ramp, by another rule, or stored
   * with a step that is not the one its ramp's ceiling was read from; or a cell with a ramp in a
   * plan without one. The ramp's own steps are checked against its rule when it is read ({@link
   * CeilingRamp}'s constructor).
   */
  private static void pointRampProblems(
      int i, DelaySweepCell c, DelaySweepPlan plan, List<String> out) {
    String at = "$.cells[" + i + "]";
    if (plan.pointRamp() == null) {
      out.add(at + " has a point_ramp, the plan declares none");
      return;
    }
    if (c.pointRamp() == null) {
      out.add(at + " has no point_ramp, the plan declares one");
      return;
    }
    if (c.pointRamp().steps().isEmpty()) {
      out.add(at + ".point_ramp has no step");
      return;
    }
    if (!c.pointRamp().rule().equals(plan.pointRamp().rule())) {
      out.add(at + ".point_ramp.rule is not the plan's point_ramp.rule");
      return;
    }
    double step =
        c.pointRamp().steps().get(DelaySweepAnalysis.ceilingStep(c.pointRamp())).offeredPerS();
    if (!same(c.cell().offeredPerS(), step)) {
      out.add(
          at
              + " was offered "
              + c.cell().offeredPerS()
              + " events/s, the step its ramp's ceiling was read from "
              + step);
    }
  }

  /**
   * Every field of the plan where {@code stored} and {@code given} differ, each as "field STORED X,
   * GIVEN Y" with the two labels given (e.g. "seed sensitivity.json 3, now 4"); read from the
   * record's components, so a field added to the plan is compared without a change here. The cell
   * order is compared last, and only when every field that gives it agrees. Empty when they agree.
   *
   * @param prefix put before each field's name (e.g. "plan."), or ""
   */
  public static List<String> planDifferences(
      DelaySweepPlan stored,
      DelaySweepPlan given,
      String prefix,
      String storedLabel,
      String givenLabel) {
    List<String> out =
        Differences.components(stored, given, "cells", prefix, storedLabel, givenLabel);
    if (out.isEmpty() && !stored.cells().equals(given.cells())) {
      out.add(
          prefix + "cells: the stored order is not the one seed " + stored.seed() + " declares");
    }
    return out;
  }

  private static boolean same(double a, double b) {
    return Math.abs(a - b) <= 1e-9 * Math.max(1.0, Math.max(Math.abs(a), Math.abs(b)));
  }

  private static String words(DelaySweepPlan.Cell c) {
    return String.format(
        Locale.ROOT,
        "cell %d at %s ms, repeat %d",
        c.sequence(),
        Double.toString(c.addedDelayMs()),
        c.repeat());
  }
}
