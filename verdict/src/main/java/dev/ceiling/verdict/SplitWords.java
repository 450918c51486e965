package dev.ceiling.verdict;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The split design's answer in words: the finding with its figures first, then what next. */
final class SplitWords {
  private SplitWords() {}

  static String of(
      SplitReport.Answer answer,
      List<SplitRate> rates,
      List<FatalProblem> fatal,
      double delta,
      boolean maskingReadable,
      Double workersCeiling,
      Double lockCeiling,
      double busyThreshold) {
    String d = "+-" + Fmt.num(delta);
    String text =
        switch (answer) {
          case RUN_INVALID ->
              "The run is invalid, so it answers nothing: "
                  + fatal.stream()
                      .map(f -> f.cell().label() + ": " + f.message())
                      .collect(Collectors.joining("; "))
                  + ".";
          case LOCK_NOT_MEASURABLE -> masked(rates, busyThreshold, workersCeiling, lockCeiling);
          case SPLIT_RAISES_THE_CEILING ->
              "Splitting the offer over two communities raises the ceiling: "
                  + readings(rates, RateReading.Reading.RAISES)
                  + ". A per-community limit (a lock) binds before the workers"
                  + expected(lockCeiling)
                  + ".";
          case EQUIVALENT_WITHIN_DELTA ->
              "Splitting the offer over two communities changes accepted/offered by less than "
                  + d
                  + ": "
                  + readings(rates, RateReading.Reading.EQUIVALENT_WITHIN_DELTA)
                  + ". Whatever binds there is not per community (a global lock, or the workers)"
                  + others(rates)
                  + ".";
          case INCONCLUSIVE ->
              "Neither a raise nor a difference within "
                  + d
                  + " was shown at any rate that could speak"
                  + others(rates)
                  + ". This is not evidence that splitting changes nothing: more repeats narrow"
                  + " the intervals.";
        };
    if (!maskingReadable && answer != SplitReport.Answer.RUN_INVALID) {
      text +=
          " The relay exposes no worker pool busy time (audit_pool_busy_seconds), so its"
              + " ceilings here are the client's (OK-true answers per second) and masking by the"
              + " workers could not be detected: the client cannot tell whether the relay's"
              + " workers bound before the lock, so a reading without a raise cannot rule out"
              + " that they did; the relay's worker metrics would tell.";
    }
    long masked = rates.stream().filter(SplitRate::masked).count();
    if (masked > 0 && answer != SplitReport.Answer.LOCK_NOT_MEASURABLE) {
      text +=
          " "
              + masked
              + " rate(s) were masked by the workers and say nothing about the lock: "
              + rates.stream()
                  .filter(SplitRate::masked)
                  .map(r -> Fmt.num(r.offeredPerS()) + "/s")
                  .collect(Collectors.joining(", "))
              + ".";
    }
    return text;
  }

  /** "at 120/s the split arm accepted 80.1/s against 40.2/s for one (difference +0.33 ...)". */
  private static String readings(List<SplitRate> rates, RateReading.Reading kind) {
    return rates.stream()
        .filter(r -> r.reading() != null && r.reading().reading() == kind)
        .map(SplitWords::reading)
        .collect(Collectors.joining("; "));
  }

  private static String reading(SplitRate r) {
    RateReading x = r.reading();
    Tost t = x.equivalence();
    String interval =
        t.lower() == null
            ? ""
            : String.format(Locale.ROOT, " [%+.3f, %+.3f]", t.lower(), t.upper());
    // At an equivalent rate a note is the raise that was shown as well, within delta: say so, so
    // the small Holm p beside it is not read as a raise that matters.
    String smallRaise =
        x.reading() == RateReading.Reading.EQUIVALENT_WITHIN_DELTA && x.note() != null
            ? "; " + x.note()
            : "";
    return String.format(
        Locale.ROOT,
        "at %s/s the split arm accepted %s/s against %s/s for one community (accepted/offered"
            + " %+.3f%s, Holm p of a raise %s%s)",
        Fmt.num(r.offeredPerS()),
        perS(r.splitAcceptedPerS()),
        perS(r.oneAcceptedPerS()),
        x.difference(),
        interval,
        Fmt.p(x.pRaiseAdjusted()),
        smallRaise);
  }

  /** The rates read otherwise than the answer, named so no one reads them as agreeing. */
  private static String others(List<SplitRate> rates) {
    String inconclusive =
        rates.stream()
            .filter(
                r ->
                    r.reading() != null
                        && r.reading().reading() == RateReading.Reading.INCONCLUSIVE)
            .map(r -> Fmt.num(r.offeredPerS()) + "/s")
            .collect(Collectors.joining(", "));
    return inconclusive.isEmpty() ? "" : "; inconclusive at " + inconclusive;
  }

  private static String expected(Double lockCeiling) {
    return lockCeiling == null
        ? ""
        : String.format(
            Locale.ROOT,
            " (the relay predicts %.1f/s for one lock, so %.1f/s for two)",
            lockCeiling,
            2 * lockCeiling);
  }

  /** Every rate masked: the figures, and what would unmask the lock, from the predictions. */
  private static String masked(
      List<SplitRate> rates, double busyThreshold, Double workersCeiling, Double lockCeiling) {
    String busy =
        rates.stream()
            .filter(SplitRate::masked)
            .map(
                r ->
                    String.format(
                        Locale.ROOT,
                        "%s/s: one %.3f, split %.3f",
                        Fmt.num(r.offeredPerS()),
                        r.onePoolBusy(),
                        r.splitPoolBusy()))
            .collect(Collectors.joining("; "));
    String text =
        "At every rate the audit workers were busy at or above "
            + Fmt.num(busyThreshold)
            + " in both arms, allowing for how long each end scrape took (mean readings "
            + busy
            + "), so the workers bind before any lock and this round cannot see it. A passing"
            + " A/B is no evidence that the lock is fine.";
    if (workersCeiling != null && lockCeiling != null) {
      double needed = 2 * lockCeiling;
      text +=
          String.format(
              Locale.ROOT,
              " The relay predicts %.1f/s for all workers and %.1f/s for one lock; the split arm"
                  + " can show the lock only when the workers' ceiling is above two locks', %.1f/s:"
                  + " run with more than %.1f times today's workers. Less delay does not unmask"
                  + " it: both ceilings scale as 1 / (delay + cost).",
              workersCeiling,
              lockCeiling,
              needed,
              needed / workersCeiling);
    } else {
      text += " More workers would unmask it; the relay reported no predictions to say how many.";
    }
    return text;
  }

  private static String perS(Double v) {
    return v == null ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
  }
}
