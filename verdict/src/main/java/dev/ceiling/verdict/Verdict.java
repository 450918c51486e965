package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.internal.Sample;
import dev.ceiling.verdict.internal.Welch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The arm-separation contract. A run is established only when, at some comparable rate, the control
 * arm's accepted/offered exceeds the treatment's by more than sampling error can explain, with the
 * family-wise error across rates held at {@code family_alpha} (Holm over one-sided Welch tests),
 * and nothing else fails: no fatal problem, both halves complete, the control ran, and the data is
 * not the model's.
 *
 * <p>Pure: no I/O, no clock, no randomness; the same inputs give an equal report. Thread-safe.
 */
public final class Verdict {
  /** Always in the notes: what a pass cannot speak for. */
  public static final String MASKED_CEILING_NOTE =
      "A pass shows the treatment path limits ingest at the separated rates; it is not evidence"
          + " that a higher limit masked by this one (e.g. a per-community lock behind the"
          + " per-worker ceiling) is fine: a masked ceiling is structurally invisible to this run."
          + " The split round (experiment --design split) looks for a per-community one, and says"
          + " when the workers mask it.";

  /** In the notes of every run whose relay exposes no metrics: what its evidence cannot see. */
  public static final String CLIENT_EVIDENCE_NOTE =
      "Contamination evidence is client-side only: the relay exposes no metrics, so a cell is"
          + " excluded only for what the generator saw (NOTICE frames, OK false, transport errors,"
          + " OKs naming ids it never sent). This cannot see admission rejections that the relay"
          + " signals to nobody: events dropped silently, a limiter that delays rather than"
          + " answers, work shed without a word, audit writes that fail quietly. Such"
          + " contamination would look like a slower relay, in either arm.";

  /** Why a relay without metrics has no worker-rate estimate. */
  public static final String CLIENT_NO_WORKER_RATE_NOTE =
      "no worker-rate estimate: the relay exposes no audit counters (completions, time spent"
          + " writing), and the generator's OKs measure the whole relay, not the worker's own rate.";

  private Verdict() {}

  /**
   * Evaluates a combined run.
   *
   * @param run the two halves
   * @param cfg thresholds
   * @return the report; established only when the contract holds
   */
  public static VerdictReport evaluate(CombinedRun run, VerdictConfig cfg) {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(cfg, "config");
    return evaluate(run.identity(), run.treatment(), run.control(), cfg);
  }

  /**
   * Evaluates one half alone. Never established: a single-arm dataset cannot show separation. The
   * control marker is "skipped" unless the half given is the control itself (then the treatment is
   * the missing arm).
   */
  public static VerdictReport evaluateSingleArm(HalfRun half, VerdictConfig cfg) {
    Objects.requireNonNull(half, "half");
    Objects.requireNonNull(cfg, "config");
    return half.isTreatment()
        ? evaluate(half.identity(), half, null, cfg)
        : evaluate(half.identity(), null, half, cfg);
  }

  private static VerdictReport evaluate(
      ExperimentIdentity id, HalfRun treatment, HalfRun control, VerdictConfig cfg) {
    List<CellAssessment> cells = new ArrayList<>();
    List<ExcludedCell> excluded = new ArrayList<>();
    List<FatalProblem> fatal = new ArrayList<>();
    Map<String, List<Cell>> evidence = new LinkedHashMap<>();
    List<Cell> workerCells = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    int bankedTreatment = 0;
    boolean clientEvidence =
        (treatment != null && treatment.rig().clientSideEvidence())
            || (control != null && control.rig().clientSideEvidence());

    for (HalfRun half : halves(treatment, control)) {
      boolean isTreatment = half.isTreatment();
      List<Cell> ev = new ArrayList<>();
      evidence.put(half.arm(), ev);
      List<List<CellProblem>> perCell = new ArrayList<>();
      Integer lostAt = null;
      for (Cell c : half.cells()) {
        List<CellProblem> problems = new ArrayList<>(CellProblems.of(c, id, cfg, clientEvidence));
        perCell.add(problems);
        if (problems.stream().anyMatch(p -> p.kind() == ProblemKind.ENQUEUE_ERRORS)) {
          lostAt = lostAt == null ? c.sequence() : Math.min(lostAt, c.sequence());
        }
      }
      for (int ci = 0; ci < half.cells().size(); ci++) {
        Cell c = half.cells().get(ci);
        List<CellProblem> problems = perCell.get(ci);
        if (lostAt != null && c.sequence() > lostAt) {
          problems.add(
              new CellProblem(
                  ProblemKind.AFTER_WORKER_LOSS,
                  "ran after the enqueue failure in the cell at sequence "
                      + lostAt
                      + ": the worker was gone",
                  true));
        }
        CellRef ref = CellRef.of(c);
        for (CellProblem p : problems) {
          if (p.kind().fatal()) {
            fatal.add(new FatalProblem(ref, p.kind(), p.message()));
          }
        }
        // Without a queue reading the client's own reading is the cell's steady flag.
        Boolean queueSteady = CellProblems.steady(c, id, cfg);
        Boolean steady = queueSteady != null ? queueSteady : CellProblems.clientSteady(c, cfg);
        Boolean busy = CellProblems.busy(c, cfg);
        CellUse use;
        if (c.twoCommunity()) {
          use = CellUse.REPORT_ONLY;
        } else if (CellProblems.excludes(problems)) {
          use = CellUse.EXCLUDED;
          excluded.add(new ExcludedCell(ref, problems));
        } else {
          use = CellUse.EVIDENCE;
          ev.add(c);
        }
        boolean worker =
            use == CellUse.EVIDENCE
                && Boolean.TRUE.equals(steady)
                && Boolean.TRUE.equals(busy)
                && c.auditCompletedPerS() != null;
        if (worker) {
          workerCells.add(c);
        }
        if (use == CellUse.EVIDENCE
            && isTreatment
            && Boolean.FALSE.equals(queueSteady)
            && c.outstandingDelta() > 0) {
          bankedTreatment++;
        }
        cells.add(
            new CellAssessment(ref, use, c.acceptedOverOffered(), steady, busy, worker, problems));
      }
    }

    double level = 1 - cfg.familyAlpha();
    List<RateRow> rows = RateComparisons.rates(id, treatment, control, evidence, cfg, level);
    int m = (int) rows.stream().filter(RateRow::comparable).count();
    WorkerRate workerRate = workerRate(workerCells, level);
    HalfRun kneeHalf = treatment != null ? treatment : control;
    KneeBracket knee = KneeNotes.knee(id, kneeHalf.arm(), rows, kneeHalf.isTreatment(), cfg);

    List<Failure> failures = new ArrayList<>();
    for (FatalProblem f : fatal) {
      failures.add(
          new Failure(FailureKind.FATAL, "fatal in " + f.cell().label() + ": " + f.message()));
    }
    if (treatment != null && control == null) {
      failures.add(
          new Failure(
              FailureKind.CONTROL_SKIPPED,
              "the control arm '"
                  + id.controlArm()
                  + "' did not run: a single-arm dataset never shows separation"));
    }
    if (control != null && treatment == null) {
      failures.add(
          new Failure(
              FailureKind.TREATMENT_SKIPPED,
              "the treatment arm '"
                  + id.treatmentArm()
                  + "' did not run: a single-arm dataset never shows separation"));
    }
    for (HalfRun half : halves(treatment, control)) {
      // Completeness is derived from the cells, never taken from the file's flag.
      PlanCheck.Result plan = PlanCheck.check(half);
      if (!plan.complete()) {
        failures.add(
            new Failure(
                FailureKind.INCOMPLETE,
                "the '"
                    + half.arm()
                    + "' half is missing "
                    + plan.missing().size()
                    + " planned cell(s)"
                    + (half.incompleteReason() == null
                        ? ""
                        : " (it stopped early: " + half.incompleteReason() + ")")
                    + ": "
                    + String.join(", ", plan.missing())
                    + "; a partial dataset is not the planned experiment"));
      }
      for (String line : plan.unplanned()) {
        failures.add(
            new Failure(
                FailureKind.NOT_THE_PLAN,
                "the '"
                    + half.arm()
                    + "' half: "
                    + line
                    + "; only the planned cells can be compared"));
      }
      if (half.rig().relayInfo().containsKey(Model.MARKER_KEY)) {
        failures.add(
            new Failure(
                FailureKind.MODEL_NOT_EVIDENCE,
                "the '" + half.arm() + "' half is model output: arithmetic, never evidence"));
      }
    }
    if (treatment != null && control != null) {
      if (m == 0) {
        failures.add(
            new Failure(
                FailureKind.NO_COMPARABLE_RATE,
                VerdictWords.noComparable(id, treatment, control, rows, excluded, cfg)));
      } else if (rows.stream().noneMatch(RateRow::separated)) {
        failures.add(
            new Failure(FailureKind.NOT_SEPARATED, VerdictWords.notSeparated(rows, m, cfg)));
      }
    }

    notes.add(MASKED_CEILING_NOTE);
    if (clientEvidence) {
      notes.add(CLIENT_EVIDENCE_NOTE);
    }
    notes.addAll(VerdictWords.rowNotes(rows));
    if (bankedTreatment > 0) {
      notes.add(
          bankedTreatment
              + " treatment evidence cell(s) banked queue credit (not steady): their"
              + " accepted/offered is biased upward, which can only hide a separation, never"
              + " forge one; absolute ceilings from them would be biased.");
    }
    if (control != null
        && !control.cells().isEmpty()
        && control.cells().stream().allMatch(c -> c.outstandingDelta() == null)) {
      notes.add(
          "the control arm has no queue: its cells have no steady-state reading, which never"
              + " counts against them.");
    }
    long unverified =
        cells.stream()
            .filter(
                a ->
                    a.problems().stream()
                        .anyMatch(p -> p.kind() == ProblemKind.CONTROL_NOT_VERIFIED))
            .count();
    if (unverified > 0) {
      notes.add(
          "the control was not verified positive: "
              + unverified
              + " control cell(s) show neither the audit completion counter nor the audit row"
              + " count, and no control_check ran, so a live audit path in the control arm would"
              + " go unseen. Map audit_log_count or audit_rows, or declare a control_check in the"
              + " profile.");
    }
    if (workerRate == null && clientEvidence) {
      notes.add(CLIENT_NO_WORKER_RATE_NOTE);
    } else if (workerRate == null) {
      notes.add(
          "no evidence cell was both steady and busy (busy fraction >= "
              + Fmt.num(cfg.busyThreshold())
              + "), so there is no worker-rate estimate.");
    }

    EquivalenceReport equivalence = AbEquivalence.judge(id, evidence, rows, cfg);
    String method = VerdictWords.method(m, cfg);
    if (equivalence != null) {
      method += VerdictWords.equivalenceMethod(equivalence.margin(), equivalence.alpha());
    } else if (id.equivalenceMargin() != null) {
      notes.add(
          "no equivalence figures for the declared margin "
              + Fmt.num(id.equivalenceMargin())
              + ": "
              + (control == null || treatment == null
                  ? "the question needs both arms"
                  : "family_alpha " + Fmt.num(cfg.familyAlpha()) + " leaves no TOST interval"));
    }
    String marker = control != null ? VerdictReport.CONTROL_RAN : VerdictReport.CONTROL_SKIPPED;
    return new VerdictReport(
        failures.isEmpty(),
        marker,
        failures,
        rows,
        excluded,
        fatal,
        workerRate,
        knee,
        notes,
        method,
        cfg,
        m,
        cells,
        clientEvidence,
        equivalence);
  }

  private static List<HalfRun> halves(HalfRun treatment, HalfRun control) {
    List<HalfRun> out = new ArrayList<>();
    if (treatment != null) {
      out.add(treatment);
    }
    if (control != null) {
      out.add(control);
    }
    return out;
  }

  private static WorkerRate workerRate(List<Cell> cells, double level) {
    if (cells.isEmpty()) {
      return null;
    }
    double[] v = cells.stream().mapToDouble(Cell::auditCompletedPerS).toArray();
    Sample s = Sample.of(v);
    List<CellRef> refs = cells.stream().map(CellRef::of).toList();
    if (v.length < 2) {
      return new WorkerRate(s.mean(), null, null, level, refs, WorkerRate.NOTE);
    }
    double[] ci = Welch.meanInterval(s, level);
    return new WorkerRate(s.mean(), ci[0], ci[1], level, refs, WorkerRate.NOTE);
  }
}
