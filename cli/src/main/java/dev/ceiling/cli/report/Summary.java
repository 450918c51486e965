package dev.ceiling.cli.report;

import static dev.ceiling.cli.report.HtmlTables.f;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.verdict.ArmStats;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.Difference;
import dev.ceiling.verdict.EquivalenceReport;
import dev.ceiling.verdict.ExcludedCell;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.RateEquivalence;
import dev.ceiling.verdict.RateRow;
import dev.ceiling.verdict.Tost;
import dev.ceiling.verdict.VerdictConfig;
import dev.ceiling.verdict.VerdictReport;
import dev.ceiling.verdict.WorkerRate;
import java.util.Locale;

/**
 * The plain-text summary printed on stdout: the answer in words ({@link Answer}), then a table per
 * rate, the verdict, and one {@code NOT ESTABLISHED:} line per failure. Formats only; every figure
 * comes from the verdict.
 */
public final class Summary {
  private Summary() {}

  public static String text(ExperimentReport report) {
    return text(report, null);
  }

  /**
   * The summary; {@code fileThresholds}, when not null, are the thresholds a re-read file carried
   * and that did not decide: shown beside the ones that did.
   */
  public static String text(ExperimentReport report, VerdictConfig fileThresholds) {
    VerdictReport v = report.verdict();
    // The answer first: a user who reads one line should read the one that answers the question.
    StringBuilder sb = new StringBuilder(Answer.of(report).text()).append('\n');
    String t = report.identity().treatmentArm();
    String c = report.identity().controlArm();
    sb.append(
        String.format(
            Locale.ROOT,
            "%-10s %-26s %-26s %-34s %-10s %s%n",
            "offered/s",
            "treatment(" + t + ") acc/off",
            "control(" + c + ") acc/off",
            "control - treatment [adj. bound]",
            "Holm p",
            "separated"));
    for (RateRow r : v.rates()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%-10s %-26s %-26s %-34s %-10s %s%n",
              f(r.offeredPerS(), 0),
              arm(r.treatment()),
              arm(r.control()),
              diff(r),
              holm(r),
              r.separated() ? "yes" : r.comparable() ? "no" : "n/a"));
    }
    if (v.equivalence() != null) {
      sb.append(equivalence(v.equivalence()));
    }
    WorkerRate w = v.workerRate();
    if (w != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "worker completion rate: %s/s [%s, %s] from %d cells (%s)%n",
              f(w.estimatePerS(), 1),
              w.lowerPerS() == null ? "-" : f(w.lowerPerS(), 1),
              w.upperPerS() == null ? "-" : f(w.upperPerS(), 1),
              w.cellsUsed().size(),
              w.note()));
    }
    if (v.knee() != null) {
      sb.append("knee (report-only): ").append(v.knee().note()).append('\n');
    }
    sb.append("excluded cells: ").append(v.excluded().size()).append('\n');
    for (ExcludedCell e : v.excluded()) {
      // Every reason, as the HTML report lists them: a count alone sends the user to the file.
      sb.append("  ").append(e.cell().label()).append(":");
      for (CellProblem p : e.reasons()) {
        sb.append(" [").append(p.kind()).append("] ").append(p.message()).append(';');
      }
      sb.setLength(sb.length() - 1);
      sb.append('\n');
    }
    for (String note : v.notes()) {
      sb.append("note: ").append(note).append('\n');
    }
    if (report.model()) {
      sb.append("MODEL OUTPUT: never evidence\n");
    }
    VerdictConfig used = v.config();
    sb.append("thresholds: ")
        .append(used.describe())
        .append(
            VerdictConfig.isDefault(used)
                ? " (Ceiling's defaults)"
                : " (NOT Ceiling's defaults: set by flag)")
        .append('\n');
    if (fileThresholds != null) {
      sb.append("the file's thresholds, NOT used to decide: ")
          .append(fileThresholds.describe())
          .append('\n');
    }
    sb.append("verdict: ").append(v.headline()).append('\n');
    for (String line : v.failureLines()) {
      sb.append(line).append('\n');
    }
    sb.append(limits(report.identity()));
    return sb.toString();
  }

  /**
   * The configured limits, last: a run's numbers hold only under the limiter settings the rig
   * raised and the queue it gave the relay, so the console ends with them as the HTML and the
   * identity do.
   */
  static String limits(ExperimentIdentity id) {
    String limiter =
        id.limiterSettings().isEmpty()
            ? "none (the profile raises no admission limiter setting)"
            : id.limiterSettings().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(", "));
    return "limits: limiter "
        + limiter
        + "\nlimits: audit queue capacity "
        + (id.queueCapacity() == null ? "none (no queue)" : id.queueCapacity())
        + "\n";
  }

  /** The equivalence question's table: per rate the cost, its TOST interval, Holm p, reading. */
  private static String equivalence(EquivalenceReport e) {
    StringBuilder sb =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "equivalence within +-%s of accepted/offered (TOST, Holm):%n%-10s %-10s %-22s"
                    + " %-10s %-6s %s%n",
                HtmlTables.num(e.margin()),
                "offered/s",
                "cost",
                "interval",
                "Holm p",
                "floor",
                "reading"));
    for (RateEquivalence r : e.rates()) {
      Tost t = r.tost();
      sb.append(
          String.format(
              Locale.ROOT,
              "%-10s %-10s %-22s %-10s %-6s %s%n",
              f(r.offeredPerS(), 0),
              t == null ? "-" : String.format(Locale.ROOT, "%+.4f", r.cost()),
              t == null
                  ? "not comparable"
                  : String.format(
                      Locale.ROOT, "[%+.4f, %+.4f] @%.2f", t.lower(), t.upper(), t.level()),
              t == null ? "-" : f(r.pAdjusted(), 4),
              t == null ? "-" : r.binomialFloor() ? "yes" : "no",
              HtmlTables.words(r.reading(), e.margin())));
    }
    return sb.toString();
  }

  private static String arm(ArmStats a) {
    if (a == null || a.mean() == null) {
      return "-";
    }
    if (a.lower() == null || a.upper() == null) {
      return String.format(Locale.ROOT, "%s (n=%d)", f(a.mean(), 4), a.n());
    }
    return String.format(
        Locale.ROOT, "%s [%s, %s] n=%d", f(a.mean(), 3), f(a.lower(), 3), f(a.upper(), 3), a.n());
  }

  private static String diff(RateRow r) {
    Difference d = r.difference();
    if (d == null) {
      return r.notComparableReason() == null ? "-" : "not comparable";
    }
    return String.format(
        Locale.ROOT,
        "%+.4f [>= %s @%.4f]%s",
        d.estimate(),
        d.lowerBound() == null ? "-" : String.format(Locale.ROOT, "%+.4f", d.lowerBound()),
        d.intervalLevel(),
        d.degenerate() ? " degenerate" : "");
  }

  /** The Holm-adjusted p: what decides "separated", printed beside it. */
  private static String holm(RateRow r) {
    Difference d = r.difference();
    if (d == null) {
      return "-";
    }
    if (d.pAdjusted() == null) {
      return "1 (degen.)";
    }
    return d.pAdjusted() < 1e-4
        ? String.format(Locale.ROOT, "%.1e", d.pAdjusted())
        : String.format(Locale.ROOT, "%.4f", d.pAdjusted());
  }
}
