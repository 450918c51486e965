package dev.ceiling.cli.report;

import static dev.ceiling.cli.report.HtmlTables.f;

import dev.ceiling.verdict.ArmStats;
import dev.ceiling.verdict.CellAssessment;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CellUse;
import dev.ceiling.verdict.Difference;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.Failure;
import dev.ceiling.verdict.FailureKind;
import dev.ceiling.verdict.ProblemKind;
import dev.ceiling.verdict.RateRow;
import dev.ceiling.verdict.VerdictReport;
import dev.ceiling.verdict.WorkerRate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The answer to the experiment's question in words, with its figures, and what the run could not
 * see with the step that would let it: the first thing the console summary and the HTML report say.
 * Pure: everything comes from the verdict and its cell annotations, so the words can never claim
 * more than the verdict decided.
 *
 * @param sentence the answer, e.g. "Yes: with 'on', accepted/offered falls to 0.86 at 347/s ..."
 * @param nextSteps what the run could not see and what to do about it, one sentence each; empty
 *     when nothing is missing
 * @param equivalence the answer to the predeclared equivalence question (where the treatment's cost
 *     is shown to be within +-delta), or null when the run declared no margin: said apart from the
 *     sentence, because "not shown to limit" is not "shown to cost less than delta"
 */
public record Answer(String sentence, List<String> nextSteps, String equivalence) {

  /**
   * The order a failed run is explained in: the failure that makes the others moot comes first (a
   * fatal problem before an incomplete half, an incomplete half before its exclusions).
   */
  private static final List<FailureKind> HEADLINE_ORDER =
      List.of(
          FailureKind.FATAL,
          FailureKind.TREATMENT_SKIPPED,
          FailureKind.CONTROL_SKIPPED,
          FailureKind.NOT_THE_PLAN,
          FailureKind.INCOMPLETE,
          FailureKind.NO_COMPARABLE_RATE,
          FailureKind.NOT_SEPARATED);

  /** Exclusions that say the generator, not the relay, could not keep the schedule. */
  private static final Set<ProblemKind> GENERATOR_KINDS =
      Set.of(ProblemKind.GENERATOR_BOUND, ProblemKind.LOW_HEADROOM, ProblemKind.HEADROOM_UNKNOWN);

  public Answer {
    nextSteps = List.copyOf(nextSteps);
  }

  /** An answer to a run that declared no equivalence margin. */
  public Answer(String sentence, List<String> nextSteps) {
    this(sentence, nextSteps, null);
  }

  /** The answer to {@code report}'s question. */
  public static Answer of(ExperimentReport report) {
    VerdictReport v = report.verdict();
    String t = report.identity().treatmentArm();
    String c = report.identity().controlArm();
    return new Answer(
        sentence(report, v, t, c),
        nextSteps(v, t, c),
        v.equivalence() == null ? null : v.equivalence().summary());
  }

  /** The sentence and then each next step on its own line, as the console prints them. */
  public String text() {
    StringBuilder sb = new StringBuilder(sentence).append('\n');
    if (equivalence != null) {
      sb.append("equivalence: ").append(equivalence).append('\n');
    }
    for (String step : nextSteps) {
      sb.append("next: ").append(step).append('\n');
    }
    return sb.toString();
  }

  private static String sentence(ExperimentReport report, VerdictReport v, String t, String c) {
    if (v.established()) {
      String yes = v.clientSideEvidence() ? "Yes (client-side evidence): " : "Yes: ";
      return yes + separation(v, t, c) + worker(v);
    }
    Failure first = headline(v.failures());
    if (first == null) {
      // Only MODEL_NOT_EVIDENCE: the arithmetic may separate, but it is never evidence.
      boolean separates = v.rates().stream().anyMatch(RateRow::separated);
      return "Model output, never evidence: "
          + (separates ? "in the arithmetic, " + separation(v, t, c) : notSeparated(v, t, c))
          + worker(v);
    }
    String model = report.model() ? " (model output, never evidence)" : "";
    return switch (first.kind()) {
      case NOT_SEPARATED -> "No" + model + ": " + notSeparated(v, t, c) + worker(v);
      case NO_COMPARABLE_RATE ->
          "No answer"
              + model
              + ": too much of this run was excluded to compare the arms ("
              + excludedCounts(v)
              + ").";
      case INCOMPLETE -> "No answer yet" + model + ": the run is incomplete. " + first.message();
      default -> "No answer" + model + ": " + first.message();
    };
  }

  private static Failure headline(List<Failure> failures) {
    for (FailureKind kind : HEADLINE_ORDER) {
      for (Failure f : failures) {
        if (f.kind() == kind) {
          return f;
        }
      }
    }
    return null;
  }

  /** "with 't', accepted/offered falls to 0.86 at 347/s ..., while 'c' holds 1.00 up to 480/s". */
  private static String separation(VerdictReport v, String t, String c) {
    List<RateRow> separated = v.rates().stream().filter(RateRow::separated).toList();
    List<String> falls = new ArrayList<>();
    List<String> at = new ArrayList<>();
    for (RateRow r : separated) {
      falls.add(f(r.treatment().mean(), 2) + " at " + rate(r.offeredPerS()));
      at.add(rate(r.offeredPerS()));
    }
    double top = separated.get(separated.size() - 1).offeredPerS();
    Double lo = null;
    Double hi = null;
    for (RateRow r : v.rates()) {
      if (r.comparable() && r.offeredPerS() <= top && mean(r.control()) != null) {
        lo = lo == null ? r.control().mean() : Math.min(lo, r.control().mean());
        hi = hi == null ? r.control().mean() : Math.max(hi, r.control().mean());
      }
    }
    String control =
        lo == null
            ? ""
            : f(lo, 2).equals(f(hi, 2))
                ? ", while '" + c + "' holds " + f(lo, 2) + " up to " + rate(top)
                : ", while '"
                    + c
                    + "' stays within "
                    + f(lo, 2)
                    + "-"
                    + f(hi, 2)
                    + " up to "
                    + rate(top);
    return "with '"
        + t
        + "', accepted/offered falls to "
        + and(falls)
        + control
        + " (separated at "
        + and(at)
        + ", family error "
        + percent(v.config().familyAlpha())
        + ").";
  }

  /** Why no rate separated, with the figures at the highest rate compared. */
  private static String notSeparated(VerdictReport v, String t, String c) {
    RateRow top = highestComparable(v);
    if (top == null) {
      return "'" + t + "' was not shown to limit ingest: no rate could be compared.";
    }
    RateRow smallest = null;
    for (RateRow r : v.rates()) {
      Difference d = r.difference();
      if (d != null
          && d.pAdjusted() != null
          && (smallest == null || d.pAdjusted() < smallest.difference().pAdjusted())) {
        smallest = r;
      }
    }
    String p =
        smallest == null
            ? "every comparable rate was constant in both arms, which never separates"
            : "smallest Holm-adjusted p "
                + f(smallest.difference().pAdjusted(), 2)
                + " at "
                + rate(smallest.offeredPerS());
    return "'"
        + t
        + "' was not shown to limit ingest: at "
        + rate(top.offeredPerS())
        + ", the highest rate compared, accepted/offered is "
        + f(top.treatment().mean(), 2)
        + " with '"
        + t
        + "' and "
        + f(top.control().mean(), 2)
        + " with '"
        + c
        + "' ("
        + p
        + ", family error "
        + percent(v.config().familyAlpha())
        + ").";
  }

  private static String worker(VerdictReport v) {
    WorkerRate w = v.workerRate();
    if (w == null) {
      return "";
    }
    String interval =
        w.lowerPerS() == null || w.upperPerS() == null
            ? ""
            : " [" + f(w.lowerPerS(), 0) + ", " + f(w.upperPerS(), 0) + "]";
    return " The audit worker completes " + f(w.estimatePerS(), 0) + "/s" + interval + ".";
  }

  /** "12 of 16 cells excluded: GENERATOR_BOUND 10, NOT_STEADY 2". */
  private static String excludedCounts(VerdictReport v) {
    int all = 0;
    int excluded = 0;
    Map<ProblemKind, Integer> byKind = new EnumMap<>(ProblemKind.class);
    for (CellAssessment a : v.cells()) {
      if (a.use() == CellUse.REPORT_ONLY) {
        continue;
      }
      all++;
      if (a.use() == CellUse.EXCLUDED) {
        excluded++;
        a.problems().stream()
            .filter(CellProblem::excludesEvidence)
            .map(CellProblem::kind)
            .distinct()
            .forEach(k -> byKind.merge(k, 1, Integer::sum));
      }
    }
    List<String> kinds = new ArrayList<>();
    byKind.forEach((k, n) -> kinds.add(k + " " + n));
    return excluded
        + " of "
        + all
        + " cells excluded"
        + (kinds.isEmpty() ? "" : ": ")
        + String.join(", ", kinds);
  }

  private static List<String> nextSteps(VerdictReport v, String t, String c) {
    List<String> steps = new ArrayList<>();
    double tracking = 1 - v.config().kneeEpsilon();
    RateRow top = highestComparable(v);
    if (top != null && top.control().mean() >= tracking) {
      steps.add(
          "the control '"
              + c
              + "' never saturated: its own ceiling lies above "
              + rate(top.offeredPerS())
              + "; add higher rates (--rates) to find it.");
    }
    if (!v.established() && top != null && top.treatment().mean() >= tracking) {
      steps.add(
          "'"
              + t
              + "' kept up at every rate compared, up to "
              + rate(top.offeredPerS())
              + ": the rates never reached its ceiling; add higher rates (--rates).");
    }
    if (!v.established() && top != null && top.treatment().mean() < tracking) {
      notBeyondChance(v, t, c, steps);
    }
    for (double r : generatorBoundRates(v)) {
      steps.add(
          "every cell at "
              + rate(r)
              + " was excluded as generator-bound: the generator could not keep the schedule;"
              + " give it cores of its own or more processes (--generators N, docs/SCALE_OUT.md).");
    }
    for (CellAssessment a : v.cells()) {
      for (CellProblem p : a.problems()) {
        if (p.kind() == ProblemKind.LINK_FAILED) {
          steps.add(
              "cell "
                  + a.cell().label()
                  + " was excluded because a link failed: "
                  + p.message()
                  + "; check that service and measure again.");
        } else if (p.kind() == ProblemKind.RELAY_STALLED) {
          steps.add(
              "cell "
                  + a.cell().label()
                  + " was excluded because the relay stalled: "
                  + p.message()
                  + "; find what paused it (its log, the machine) and measure again.");
        }
      }
    }
    if (v.failures().stream().anyMatch(f -> f.kind() == FailureKind.INCOMPLETE)) {
      steps.add(
          "continue the run with `ceiling experiment --resume DIR` and its other options unchanged;"
              + " no cell is measured twice.");
    }
    return steps;
  }

  /** A difference in the right direction that the test could not tell from chance. */
  private static void notBeyondChance(VerdictReport v, String t, String c, List<String> steps) {
    for (RateRow r : v.rates()) {
      Difference d = r.difference();
      if (d != null && !r.separated() && d.estimate() > 0 && d.lowerBound() != null) {
        steps.add(
            "'"
                + t
                + "' accepted less than '"
                + c
                + "' at "
                + rate(r.offeredPerS())
                + " (by "
                + f(d.estimate(), 3)
                + "), but not beyond chance: more repeats (--repeats) narrow the intervals.");
        return;
      }
    }
  }

  /** Rates at which every measured cell of both arms was excluded for the generator's sake. */
  private static List<Double> generatorBoundRates(VerdictReport v) {
    Map<Double, Boolean> allGenerator = new TreeMap<>();
    for (CellAssessment a : v.cells()) {
      if (a.use() == CellUse.REPORT_ONLY) {
        continue;
      }
      boolean generator =
          a.use() == CellUse.EXCLUDED
              && a.problems().stream()
                  .anyMatch(p -> p.excludesEvidence() && GENERATOR_KINDS.contains(p.kind()));
      allGenerator.merge(a.cell().offeredPerS(), generator, Boolean::logicalAnd);
    }
    return allGenerator.entrySet().stream()
        .filter(Map.Entry::getValue)
        .map(Map.Entry::getKey)
        .toList();
  }

  private static RateRow highestComparable(VerdictReport v) {
    RateRow top = null;
    for (RateRow r : v.rates()) {
      if (r.comparable() && mean(r.treatment()) != null && mean(r.control()) != null) {
        top = r;
      }
    }
    return top;
  }

  private static Double mean(ArmStats a) {
    return a == null ? null : a.mean();
  }

  private static String and(List<String> parts) {
    if (parts.size() <= 1) {
      return String.join("", parts);
    }
    return String.join(", ", parts.subList(0, parts.size() - 1))
        + " and "
        + parts.get(parts.size() - 1);
  }

  private static String rate(double perS) {
    return f(perS, 0) + "/s";
  }

  private static String percent(double fraction) {
    String s = String.format(Locale.ROOT, "%.2f", 100 * fraction).replaceAll("\\.?0+$", "");
    return s + "%";
  }
}
