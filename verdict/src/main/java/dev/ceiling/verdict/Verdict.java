package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.verdict.internal.Holm;
import dev.ceiling.verdict.internal.Knee;
import dev.ceiling.verdict.internal.Sample;
import dev.ceiling.verdict.internal.Welch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

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
          + " per-worker ceiling) is fine: a masked ceiling is structurally invisible to this run.";

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
        Boolean steady = CellProblems.steady(c, id, cfg);
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
            && Boolean.FALSE.equals(steady)
            && c.outstandingDelta() > 0) {
          bankedTreatment++;
        }
        cells.add(
            new CellAssessment(ref, use, c.acceptedOverOffered(), steady, busy, worker, problems));
      }
    }

    double level = 1 - cfg.familyAlpha();
    List<RateRow> rows = rates(id, treatment, control, evidence, cfg, level);
    int m = (int) rows.stream().filter(RateRow::comparable).count();
    WorkerRate workerRate = workerRate(workerCells, level);
    HalfRun kneeHalf = treatment != null ? treatment : control;
    KneeBracket knee = knee(id, kneeHalf.arm(), rows, kneeHalf.isTreatment(), cfg);

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
                noComparable(id, treatment, control, rows, excluded, cfg)));
      } else if (rows.stream().noneMatch(RateRow::separated)) {
        failures.add(new Failure(FailureKind.NOT_SEPARATED, notSeparated(rows, m, cfg)));
      }
    }

    notes.add(MASKED_CEILING_NOTE);
    if (clientEvidence) {
      notes.add(CLIENT_EVIDENCE_NOTE);
    }
    notes.addAll(rowNotes(rows));
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
    if (workerRate == null && clientEvidence) {
      notes.add(CLIENT_NO_WORKER_RATE_NOTE);
    } else if (workerRate == null) {
      notes.add(
          "no evidence cell was both steady and busy (busy fraction >= "
              + Fmt.num(cfg.busyThreshold())
              + "), so there is no worker-rate estimate.");
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
        method(m, cfg),
        cfg,
        m,
        cells,
        clientEvidence);
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

  private static List<RateRow> rates(
      ExperimentIdentity id,
      HalfRun treatment,
      HalfRun control,
      Map<String, List<Cell>> evidence,
      VerdictConfig cfg,
      double level) {
    List<Double> grid = id.ratesPerS();
    int k = grid.size();
    ArmStats[] t = new ArmStats[k];
    ArmStats[] c = new ArmStats[k];
    Sample[] ts = new Sample[k];
    Sample[] cs = new Sample[k];
    String[] reason = new String[k];
    List<Integer> comparable = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      double rate = grid.get(i);
      double[] tv = values(evidence.get(id.treatmentArm()), rate);
      double[] cv = values(evidence.get(id.controlArm()), rate);
      t[i] = stats(tv, level);
      c[i] = control == null ? null : stats(cv, level);
      ts[i] = tv.length > 0 ? Sample.of(tv) : null;
      cs[i] = cv.length > 0 ? Sample.of(cv) : null;
      if (treatment == null) {
        reason[i] = "the treatment arm did not run";
      } else if (control == null) {
        reason[i] = "the control arm did not run";
      } else if (tv.length < cfg.minCellsPerArm() || cv.length < cfg.minCellsPerArm()) {
        reason[i] =
            "needs "
                + cfg.minCellsPerArm()
                + " evidence cells per arm, has "
                + tv.length
                + " treatment and "
                + cv.length
                + " control";
      } else {
        comparable.add(i);
      }
    }
    int m = comparable.size();
    double[] p = new double[m];
    Welch.Result[] results = new Welch.Result[m];
    for (int j = 0; j < m; j++) {
      int i = comparable.get(j);
      if (Welch.standardError(cs[i], ts[i]) > 0) {
        results[j] = Welch.test(cs[i], ts[i], cfg.minDifference());
        p[j] = results[j].pGreater();
      } else {
        // Both arms exactly constant: the Welch statistic is undefined (0/0 or x/0). Zero
        // variance is not evidence of zero sampling error, so the rate counts in m and can
        // never separate.
        p[j] = 1.0;
      }
    }
    double[] adj = Holm.adjust(p);
    double intervalLevel = m == 0 ? level : 1 - cfg.familyAlpha() / m;
    Difference[] diffs = new Difference[k];
    boolean[] separated = new boolean[k];
    for (int j = 0; j < m; j++) {
      int i = comparable.get(j);
      double estimate = cs[i].mean() - ts[i].mean();
      Welch.Result r = results[j];
      if (r == null) {
        diffs[i] = new Difference(estimate, 0.0, null, null, null, null, null, intervalLevel, true);
      } else {
        double lower = estimate - Welch.tUpper(r.df(), cfg.familyAlpha() / m) * r.standardError();
        diffs[i] =
            new Difference(
                estimate,
                r.standardError(),
                r.t(),
                r.df(),
                r.pGreater(),
                adj[j],
                lower,
                intervalLevel,
                false);
        separated[i] = adj[j] <= cfg.familyAlpha();
      }
    }
    List<RateRow> rows = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      boolean comp = reason[i] == null;
      rows.add(new RateRow(grid.get(i), t[i], c[i], comp, reason[i], diffs[i], separated[i]));
    }
    return rows;
  }

  private static double[] values(List<Cell> cells, double rate) {
    if (cells == null) {
      return new double[0];
    }
    return cells.stream()
        .filter(c -> CellProblems.close(c.offeredPerS(), rate))
        .mapToDouble(Cell::acceptedOverOffered)
        .toArray();
  }

  private static ArmStats stats(double[] v, double level) {
    if (v.length == 0) {
      return new ArmStats(0, null, null, null, null, level);
    }
    Sample s = Sample.of(v);
    if (v.length == 1) {
      return new ArmStats(1, s.mean(), null, null, null, level);
    }
    double[] ci = Welch.meanInterval(s, level);
    return new ArmStats(v.length, s.mean(), s.sd(), ci[0], ci[1], level);
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

  private static KneeBracket knee(
      ExperimentIdentity id, String arm, List<RateRow> rows, boolean treatment, VerdictConfig cfg) {
    double threshold = 1 - cfg.kneeEpsilon();
    List<Knee.State> states = new ArrayList<>();
    for (RateRow r : rows) {
      ArmStats s = treatment ? r.treatment() : r.control();
      if (s == null || s.upper() == null) {
        states.add(Knee.State.UNKNOWN);
      } else {
        states.add(s.upper() < threshold ? Knee.State.BELOW : Knee.State.TRACKING);
      }
    }
    Knee.Result k = Knee.find(states);
    List<Double> grid = id.ratesPerS();
    Double kneeRate = k.knee() == null ? null : grid.get(k.knee());
    Double passing = k.highestPassing() == null ? null : grid.get(k.highestPassing());
    StringBuilder note = new StringBuilder();
    if (kneeRate != null) {
      note.append("knee at ").append(Fmt.num(kneeRate)).append("/s");
      if (passing != null) {
        note.append(", highest passing rate ").append(Fmt.num(passing)).append("/s");
      }
    } else {
      note.append("no knee confirmed on the grid");
    }
    int last = grid.size() - 1;
    List<Integer> lone = k.loneDips().stream().filter(i -> i != last).toList();
    if (!lone.isEmpty()) {
      note.append("; lone dip(s) at ")
          .append(
              lone.stream().map(i -> Fmt.num(grid.get(i)) + "/s").collect(Collectors.joining(", ")))
          .append(" (not a knee: the next rate did not stay below)");
    }
    if (k.loneDips().contains(last)) {
      note.append("; below at the last rate, ")
          .append(Fmt.num(grid.get(last)))
          .append("/s, unconfirmed: the grid has no higher rate to show it stays below");
    }
    note.append("; report-only, nothing gates on it");
    return new KneeBracket(arm, passing, kneeRate, threshold, note.toString());
  }

  private static String noComparable(
      ExperimentIdentity id,
      HalfRun treatment,
      HalfRun control,
      List<RateRow> rows,
      List<ExcludedCell> excluded,
      VerdictConfig cfg) {
    String needs = "no rate has " + cfg.minCellsPerArm() + " evidence cells in both arms: ";
    if (id.repeats() < cfg.minCellsPerArm()) {
      return needs
          + "the experiment plans repeats = "
          + id.repeats()
          + " per rate, and a comparison needs "
          + cfg.minCellsPerArm()
          + " cells per arm at a rate (a variance needs two); measure again with more repeats";
    }
    List<String> empty = new ArrayList<>();
    for (HalfRun h : List.of(treatment, control)) {
      if (h.cells().stream().noneMatch(c -> !c.twoCommunity())) {
        empty.add("the '" + h.arm() + "' half has no cells");
      }
    }
    if (!empty.isEmpty()) {
      return needs + String.join(", and ", empty);
    }
    if (excluded.isEmpty()) {
      return needs
          + "no cell was excluded, but the cells do not give each arm "
          + cfg.minCellsPerArm()
          + " at any one rate ("
          + rows.size()
          + " rates)";
    }
    Map<ProblemKind, Integer> byKind = new EnumMap<>(ProblemKind.class);
    for (ExcludedCell e : excluded) {
      e.reasons().stream()
          .filter(CellProblem::excludesEvidence)
          .map(CellProblem::kind)
          .distinct()
          .forEach(kind -> byKind.merge(kind, 1, Integer::sum));
    }
    String reasons =
        byKind.entrySet().stream()
            .map(e -> e.getKey() + " x" + e.getValue())
            .collect(Collectors.joining(", "));
    return "too much of this dataset was excluded: no rate has "
        + cfg.minCellsPerArm()
        + " evidence cells in both arms ("
        + rows.size()
        + " rates, "
        + excluded.size()
        + " cells excluded: "
        + reasons
        + ")";
  }

  private static String notSeparated(List<RateRow> rows, int m, VerdictConfig cfg) {
    RateRow best =
        rows.stream()
            .filter(r -> r.comparable() && !r.difference().degenerate())
            .min(Comparator.comparingDouble(r -> r.difference().pAdjusted()))
            .orElse(null);
    String detail =
        best == null
            ? "every comparable rate had exactly constant cells in both arms"
            : "smallest Holm-adjusted p = "
                + Fmt.p(best.difference().pAdjusted())
                + " at "
                + Fmt.num(best.offeredPerS())
                + "/s, difference "
                + Fmt.stat(best.difference().estimate());
    return "not shown to limit ingest: no comparable rate separated (control above treatment) at"
        + " family-wise alpha "
        + Fmt.num(cfg.familyAlpha())
        + " across m = "
        + m
        + " rates; "
        + detail;
  }

  private static List<String> rowNotes(List<RateRow> rows) {
    List<String> out = new ArrayList<>();
    List<String> degenerate = new ArrayList<>();
    List<String> reversed = new ArrayList<>();
    for (RateRow r : rows) {
      if (!r.comparable()) {
        continue;
      }
      if (r.difference().degenerate()) {
        degenerate.add(Fmt.num(r.offeredPerS()) + "/s");
      } else if (r.difference().estimate() < 0) {
        reversed.add(Fmt.num(r.offeredPerS()) + "/s");
      }
    }
    if (!degenerate.isEmpty()) {
      out.add(
          "both arms' cells were exactly constant at "
              + String.join(", ", degenerate)
              + ": zero variance gives no estimate of sampling error, so these rates count in"
              + " the correction and cannot separate.");
    }
    if (!reversed.isEmpty()) {
      out.add(
          "the treatment accepted more than the control at "
              + String.join(", ", reversed)
              + ": only control above treatment counts as separation.");
    }
    return out;
  }

  static String method(int m, VerdictConfig cfg) {
    String a = Fmt.num(cfg.familyAlpha());
    String perRate = m == 0 ? "n/a" : String.format(Locale.ROOT, "%.6f", 1 - cfg.familyAlpha() / m);
    return "Per comparable rate (at least "
        + cfg.minCellsPerArm()
        + " evidence cells in each arm), a one-sided Welch t-test (unequal variances,"
        + " Welch-Satterthwaite fractional degrees of freedom; Student-t from Apache Commons"
        + " Statistics) of H0: mean accepted/offered of control minus treatment <= "
        + Fmt.num(cfg.minDifference())
        + ". Family-wise error across the m = "
        + m
        + " comparable rates is held at "
        + a
        + " by Holm's step-down procedure, valid under any dependence between rates; a rate is"
        + " separated when its Holm-adjusted p <= "
        + a
        + ". Each difference carries a simultaneous one-sided Bonferroni lower bound at level "
        + perRate
        + " (1 - alpha/m): a bound above the margin implies separation, but Holm may separate"
        + " where the bound does not. Both arms exactly constant at a rate: no estimate of"
        + " sampling error, so the rate counts in m, enters Holm as p = 1 and cannot separate."
        + " Per-arm intervals are two-sided Student-t at "
        + Fmt.num(1 - cfg.familyAlpha())
        + ", unadjusted and descriptive; no decision reads them. Config: "
        + cfg.describe()
        + ".";
  }
}
