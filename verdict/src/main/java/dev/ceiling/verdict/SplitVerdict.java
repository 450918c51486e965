package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * The split design's verdict. One relay measured two kinds of cell at each rate, in pairs of the
 * same (rate, repeat): "one", the whole offer to one community, and "split", half to each of two.
 * Each cell is judged by the A/B's cell rules; a pair whose worker pool may have been busy at or
 * above the busy threshold in both cells ({@link #busyAtMost}) is excluded as {@link
 * ProblemKind#MASKED_BY_WORKER} (the workers bound first, so the pair cannot speak about a lock);
 * then at every rate not wholly masked two predeclared questions, with Holm across rates ({@link
 * RaiseOrEquivalence}): does splitting raise accepted/offered, and is the difference within
 * +-delta? Pure.
 */
public final class SplitVerdict {
  private SplitVerdict() {}

  /**
   * Judges a split run.
   *
   * @param half the measured cells: "one" cells have {@code two_community} false, "split" cells
   *     true; its identity's repeats are per arm
   * @param delta the equivalence margin in accepted/offered, in (0, 1), declared before the run
   * @param predictedWorkersCeilingPerS the relay's prediction for all workers together, or null
   * @param predictedLockCeilingPerS the relay's prediction for one lock, or null
   */
  public static SplitReport judge(
      HalfRun half,
      double delta,
      Double predictedWorkersCeilingPerS,
      Double predictedLockCeilingPerS,
      VerdictConfig cfg) {
    Objects.requireNonNull(half, "half");
    Objects.requireNonNull(cfg, "config");
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
    List<SplitCell> cells = assess(half, cfg);
    List<FatalProblem> fatal = new ArrayList<>();
    for (SplitCell c : cells) {
      for (CellProblem p : c.problems()) {
        if (p.kind().fatal()) {
          fatal.add(new FatalProblem(c.cell(), p.kind(), p.message()));
        }
      }
    }
    List<SplitRate> rates = rates(half.identity().ratesPerS(), cells, delta, cfg.familyAlpha());
    boolean maskingReadable = cells.stream().anyMatch(c -> c.poolBusyFraction() != null);
    SplitReport.Answer answer = answer(rates, fatal);
    String words =
        SplitWords.of(
            answer,
            rates,
            fatal,
            delta,
            maskingReadable,
            predictedWorkersCeilingPerS,
            predictedLockCeilingPerS,
            cfg.busyThreshold());
    return new SplitReport(
        delta,
        cfg.familyAlpha(),
        cfg.busyThreshold(),
        answer,
        rates,
        cells,
        fatal,
        maskingReadable,
        predictedWorkersCeilingPerS,
        predictedLockCeilingPerS,
        words);
  }

  /** Every cell by the A/B's rules (a lost worker taints the later cells), then the masking. */
  private static List<SplitCell> assess(HalfRun half, VerdictConfig cfg) {
    boolean client = half.rig().clientSideEvidence();
    List<List<CellProblem>> problems = new ArrayList<>();
    Integer lostAt = null;
    for (Cell c : half.cells()) {
      List<CellProblem> p = new ArrayList<>(CellProblems.of(c, half.identity(), cfg, client));
      if (p.stream().anyMatch(q -> q.kind() == ProblemKind.ENQUEUE_ERRORS)) {
        lostAt = lostAt == null ? c.sequence() : Math.min(lostAt, c.sequence());
      }
      problems.add(p);
    }
    for (int i = 0; i < half.cells().size(); i++) {
      Cell c = half.cells().get(i);
      if (lostAt != null && c.sequence() > lostAt) {
        problems
            .get(i)
            .add(
                new CellProblem(
                    ProblemKind.AFTER_WORKER_LOSS,
                    "ran after the enqueue failure in the cell at sequence "
                        + lostAt
                        + ": the worker was gone",
                    true));
      }
      Cell partner = partner(half.cells(), c);
      if (partner != null && busy(c, cfg) && busy(partner, cfg)) {
        Cell one = c.twoCommunity() ? partner : c;
        Cell split = c.twoCommunity() ? c : partner;
        problems
            .get(i)
            .add(
                new CellProblem(
                    ProblemKind.MASKED_BY_WORKER,
                    String.format(
                        Locale.ROOT,
                        "the worker pool was busy %.3f (one) and %.3f (split), at most %.3f and"
                            + " %.3f over the shortest span the scrapes allow, both >= %s: the"
                            + " workers bind before any lock, so this pair cannot speak about it",
                        one.poolBusyFraction(),
                        split.poolBusyFraction(),
                        busyAtMost(one),
                        busyAtMost(split),
                        Fmt.num(cfg.busyThreshold())),
                    true));
      }
    }
    List<SplitCell> out = new ArrayList<>();
    for (int i = 0; i < half.cells().size(); i++) {
      Cell c = half.cells().get(i);
      List<CellProblem> p = problems.get(i);
      out.add(
          new SplitCell(
              CellRef.of(c),
              c.twoCommunity(),
              c.acceptedOverOffered(),
              c.acceptedInWindow() / c.durationRequestedS(),
              c.poolBusyFraction(),
              CellProblems.excludes(p) ? CellUse.EXCLUDED : CellUse.EVIDENCE,
              p));
    }
    return out;
  }

  /** The other kind of cell at the same rate and repeat, or null when it was not measured. */
  private static Cell partner(List<Cell> cells, Cell c) {
    return cells.stream()
        .filter(
            o ->
                o.twoCommunity() != c.twoCommunity()
                    && o.repeat() == c.repeat()
                    && CellProblems.close(o.offeredPerS(), c.offeredPerS()))
        .findFirst()
        .orElse(null);
  }

  /** Whether the pool may have been busy at or above the threshold ({@link #busyAtMost}). */
  private static boolean busy(Cell c, VerdictConfig cfg) {
    Double most = busyAtMost(c);
    return most != null && most >= cfg.busyThreshold();
  }

  /**
   * The largest pool busy fraction the cell's scrapes allow, or null without a reading. The reading
   * divides the relay's busy seconds by the time between the two scrapes' completions; the relay
   * rendered the end scrape somewhere inside it, so its counters may cover a span shorter by that
   * scrape's duration, and the reading is then low by as much. A saturated pool beside a loaded
   * test command read 0.949 this way (a 6 s window): that pair is masked, for it cannot rule out
   * that the workers bound. Without the scrape times (a relay without them, or an older file) the
   * reading itself.
   */
  static Double busyAtMost(Cell c) {
    Double busy = c.poolBusyFraction();
    Double windowS = c.scrapeWindowS();
    Double endS = c.scrapeEndS();
    if (busy == null || windowS == null || endS == null || endS >= windowS) {
      return busy;
    }
    return busy * windowS / (windowS - endS);
  }

  /** Per rate: the pairs, the masking, the figures, and the two questions at unmasked rates. */
  private static List<SplitRate> rates(
      List<Double> grid, List<SplitCell> cells, double delta, double alpha) {
    List<RateSamples> open = new ArrayList<>();
    for (double rate : grid) {
      if (!masked(at(cells, rate))) {
        open.add(
            new RateSamples(
                rate, evidence(at(cells, rate), false), evidence(at(cells, rate), true)));
      }
    }
    List<RateReading> readings =
        open.isEmpty() ? List.of() : RaiseOrEquivalence.judge(open, delta, alpha);
    List<SplitRate> out = new ArrayList<>();
    for (double rate : grid) {
      List<SplitCell> here = at(cells, rate);
      RateReading reading =
          readings.stream()
              .filter(r -> CellProblems.close(r.offeredPerS(), rate))
              .findFirst()
              .orElse(null);
      int masked =
          (int)
              here.stream().filter(c -> c.split() && has(c, ProblemKind.MASKED_BY_WORKER)).count();
      out.add(
          new SplitRate(
              rate,
              pairs(here),
              masked,
              mean(clean(here, false), SplitCell::acceptedPerS),
              mean(clean(here, true), SplitCell::acceptedPerS),
              meanBusy(here, false),
              meanBusy(here, true),
              reading == null,
              reading));
    }
    return out;
  }

  /** A rate is masked when it has pairs and every one of them was masked. */
  private static boolean masked(List<SplitCell> here) {
    List<SplitCell> split = here.stream().filter(SplitCell::split).toList();
    int pairs = pairs(here);
    return pairs > 0
        && split.stream().filter(c -> has(c, ProblemKind.MASKED_BY_WORKER)).count() == pairs;
  }

  private static int pairs(List<SplitCell> here) {
    int n = 0;
    for (SplitCell s : here) {
      if (s.split()
          && here.stream().anyMatch(o -> !o.split() && o.cell().repeat() == s.cell().repeat())) {
        n++;
      }
    }
    return n;
  }

  private static boolean has(SplitCell c, ProblemKind kind) {
    return c.problems().stream().anyMatch(p -> p.kind() == kind);
  }

  private static List<SplitCell> at(List<SplitCell> cells, double rate) {
    return cells.stream().filter(c -> CellProblems.close(c.cell().offeredPerS(), rate)).toList();
  }

  private static List<SplitCell> evidenceCells(List<SplitCell> here, boolean split) {
    return here.stream().filter(c -> c.split() == split && c.use() == CellUse.EVIDENCE).toList();
  }

  /**
   * The arm's cells that nothing but masking excluded: what the arm accepted, whether or not the
   * rate can speak about the lock.
   */
  private static List<SplitCell> clean(List<SplitCell> here, boolean split) {
    return here.stream()
        .filter(c -> c.split() == split)
        .filter(
            c ->
                c.problems().stream()
                    .allMatch(
                        p -> !p.excludesEvidence() || p.kind() == ProblemKind.MASKED_BY_WORKER))
        .toList();
  }

  private static List<Double> evidence(List<SplitCell> here, boolean split) {
    return evidenceCells(here, split).stream().map(SplitCell::acceptedOverOffered).toList();
  }

  private static Double meanBusy(List<SplitCell> here, boolean split) {
    return mean(
        here.stream().filter(c -> c.split() == split && c.poolBusyFraction() != null).toList(),
        SplitCell::poolBusyFraction);
  }

  private static Double mean(List<SplitCell> cells, ToDoubleFunction<SplitCell> f) {
    OptionalDouble m = cells.stream().mapToDouble(f).average();
    return m.isPresent() ? m.getAsDouble() : null;
  }

  /**
   * Fatal first; masked everywhere next; then a rate reading RAISES anywhere (a raise not shown to
   * lie within delta); then equivalence anywhere.
   */
  private static SplitReport.Answer answer(List<SplitRate> rates, List<FatalProblem> fatal) {
    if (!fatal.isEmpty()) {
      return SplitReport.Answer.RUN_INVALID;
    }
    List<RateReading> read = rates.stream().map(SplitRate::reading).filter(r -> r != null).toList();
    if (read.isEmpty() && rates.stream().anyMatch(SplitRate::masked)) {
      return SplitReport.Answer.LOCK_NOT_MEASURABLE;
    }
    if (read.stream().anyMatch(r -> r.reading() == RateReading.Reading.RAISES)) {
      return SplitReport.Answer.SPLIT_RAISES_THE_CEILING;
    }
    if (read.stream().anyMatch(r -> r.reading() == RateReading.Reading.EQUIVALENT_WITHIN_DELTA)) {
      return SplitReport.Answer.EQUIVALENT_WITHIN_DELTA;
    }
    return SplitReport.Answer.INCONCLUSIVE;
  }
}
