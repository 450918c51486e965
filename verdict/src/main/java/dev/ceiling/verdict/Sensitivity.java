package dev.ceiling.verdict;

import dev.ceiling.core.model.Checks;
import dev.ceiling.verdict.internal.WeightedLine;
import dev.ceiling.verdict.internal.Welch;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The statistics of a delay sweep: if a path makes k sequential round trips per event over a link
 * and each gains d ms, its per-event service time grows by k d, so its ceiling C follows 1 / C(d) =
 * k d + c. This class fits that line over the repeat-level points, tests it against the pure error
 * of the repeats, compares k with a declared count, and compares two arms. Pure: records in,
 * records out; thread-safe.
 */
public final class Sensitivity {
  private Sensitivity() {}

  /**
   * Weighted least squares of 1 / C (ms per event) on d (ms) over every repeat, with t intervals on
   * points - 2 df and the lack-of-fit F test against the pure error of the repeats.
   *
   * @param points at least 3, at at least 2 distinct delays; weights on every point or on none; no
   *     (delay, repeat) twice
   * @param level the intervals' two-sided confidence level, in (0, 1), e.g. 0.95
   * @param lackOfFitAlpha the lack-of-fit test's level, in (0, 0.5], e.g. 0.05
   * @throws IllegalArgumentException naming every broken rule at once
   */
  public static SensitivityFit fit(List<DelayPoint> points, double level, double lackOfFitAlpha) {
    if (points == null || points.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("points must be a list without nulls");
    }
    Row[] rows =
        points.stream()
            .map(p -> new Row(p.addedDelayMs(), p.repeat(), p.msPerEvent(), p.weight()))
            .toArray(Row[]::new);
    return line(rows, level, lackOfFitAlpha, false);
  }

  /**
   * The latency slope: ordinary least squares of the OK latency (ms) on the round-trip delay the
   * link really added (ms) over every repeat, with the same t intervals and lack-of-fit test as
   * {@link #fit}. Measured at an offer well below the ceiling, an event's OK latency grows by d for
   * each sequential round trip its OK path makes on the link, whether or not the link bounds the
   * ceiling, so the slope (ms of latency per ms of added round-trip delay) counts those round
   * trips: {@link SensitivityFit#roundTripsPerEvent()}. The intercept ({@link
   * SensitivityFit#interceptMsPerEvent()}) is then the OK latency at no added delay, ms. {@link
   * #againstCount} tests it against a declared count as it tests the ceiling's slope.
   *
   * @param points at least 3, at at least 2 distinct delays; no (delay, repeat) twice
   * @param level the intervals' two-sided confidence level, in (0, 1)
   * @param lackOfFitAlpha the lack-of-fit test's level, in (0, 0.5]
   * @throws IllegalArgumentException naming every broken rule at once
   */
  public static SensitivityFit latencyFit(
      List<LatencyPoint> points, double level, double lackOfFitAlpha) {
    if (points == null || points.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("points must be a list without nulls");
    }
    Row[] rows =
        points.stream()
            .map(p -> new Row(p.addedDelayMs(), p.repeat(), p.okLatencyMs(), null))
            .toArray(Row[]::new);
    return line(rows, level, lackOfFitAlpha, true);
  }

  /** One repeat as the line sees it: x (ms of added delay), its repeat, y (ms) and its weight. */
  private record Row(double x, int repeat, double y, Double weight) {
    double fitWeight() {
      return weight == null ? 1.0 : weight;
    }
  }

  /** The rows as the line's columns: x (ms), y (ms) and each row's weight. */
  private static final class Columns {
    final double[] x;
    final double[] y;
    final double[] w;

    Columns(Row[] rows) {
      x = new double[rows.length];
      y = new double[rows.length];
      w = new double[rows.length];
      for (int i = 0; i < rows.length; i++) {
        x[i] = rows[i].x();
        y[i] = rows[i].y();
        w[i] = rows[i].fitWeight();
      }
    }

    WeightedLine fit() {
      return WeightedLine.fit(x, y, w);
    }
  }

  /** The line through {@code rows}, its intervals, its lack-of-fit test and its words. */
  private static SensitivityFit line(
      Row[] rows, double level, double lackOfFitAlpha, boolean latency) {
    // Sorted, so that the figures do not depend on the order the points came in, and so that
    // equal delays (the pure-error groups) and duplicates are adjacent.
    Row[] sorted = rows.clone();
    Arrays.sort(sorted, Comparator.comparingDouble(Row::x).thenComparingInt(Row::repeat));
    check(sorted, level, lackOfFitAlpha).orThrow();
    int n = sorted.length;
    Columns cols = new Columns(sorted);
    WeightedLine line = cols.fit();
    int df = n - 2;
    double s2 = line.sse() / df;
    Estimate k = Estimate.of(line.slope(), Math.sqrt(line.slopeVariance(s2)), df, level);
    Estimate c = Estimate.of(line.intercept(), Math.sqrt(line.interceptVariance(s2)), df, level);
    LackOfFit lof = PureError.test(cols.x, cols.y, cols.w, line, lackOfFitAlpha);
    boolean established = lof.status() == LackOfFit.Status.NOT_REJECTED && s2 > 0;
    int delays = lof.levels().size();
    return new SensitivityFit(
        n,
        delays,
        k,
        c,
        Math.sqrt(s2),
        lof,
        established,
        words(k, c, level, lof, established, latency));
  }

  /**
   * The ceiling the unweighted least-squares line of 1 / C on d through {@code points} predicts at
   * {@code atDelayMs}, events/s: what a sweep offers its next cell from the cells before it. Empty
   * when the points span fewer than 2 delays, or the line reaches no positive service time there (a
   * slope so negative that no ceiling is predicted).
   *
   * @param atDelayMs finite, &gt;= 0
   */
  public static OptionalDouble predictedCeilingPerS(List<DelayPoint> points, double atDelayMs) {
    Objects.requireNonNull(points, "points");
    new Checks().nonNegativeFinite("at_delay_ms", atDelayMs).orThrow();
    if (points.stream().map(DelayPoint::addedDelayMs).distinct().count() < 2) {
      return OptionalDouble.empty();
    }
    double[] x = points.stream().mapToDouble(DelayPoint::addedDelayMs).toArray();
    double[] y = points.stream().mapToDouble(DelayPoint::msPerEvent).toArray();
    double[] w = new double[x.length];
    Arrays.fill(w, 1.0);
    double msPerEvent = WeightedLine.fit(x, y, w).at(atDelayMs);
    return msPerEvent > 0 ? OptionalDouble.of(1000.0 / msPerEvent) : OptionalDouble.empty();
  }

  /**
   * The ceiling line's what-if at {@code atDelayMs}: the ceiling it predicts there, with the
   * prediction interval for the mean of the {@code holdout} repeats measured at that delay and left
   * out of {@code fitted}, and whether their ceiling fell inside. Without a holdout, the line's own
   * confidence interval, and only inside the swept delays.
   *
   * @param fitted the points the line is fitted to (as {@link #fit}); weights on all or none
   * @param holdout repeats at {@code atDelayMs} only, weighted as {@code fitted} is; may be empty
   * @param level the interval's two-sided level, in (0, 1)
   * @throws IllegalArgumentException naming every broken rule at once
   */
  public static WhatIf whatIf(
      List<DelayPoint> fitted, double atDelayMs, List<DelayPoint> holdout, double level) {
    Objects.requireNonNull(fitted, "fitted");
    Objects.requireNonNull(holdout, "holdout");
    return predict(
        WhatIf.Line.CEILING,
        fitted.stream()
            .map(p -> new Row(p.addedDelayMs(), p.repeat(), p.msPerEvent(), p.weight()))
            .toArray(Row[]::new),
        atDelayMs,
        holdout.stream()
            .map(p -> new Row(p.addedDelayMs(), p.repeat(), p.msPerEvent(), p.weight()))
            .toArray(Row[]::new),
        level);
  }

  /**
   * The latency line's what-if at {@code atDelayMs}, as {@link #whatIf} for the ceiling: the OK
   * latency the line predicts there, in ms, checked against the holdout's mean latency.
   */
  public static WhatIf latencyWhatIf(
      List<LatencyPoint> fitted, double atDelayMs, List<LatencyPoint> holdout, double level) {
    Objects.requireNonNull(fitted, "fitted");
    Objects.requireNonNull(holdout, "holdout");
    return predict(
        WhatIf.Line.LATENCY,
        fitted.stream()
            .map(p -> new Row(p.addedDelayMs(), p.repeat(), p.okLatencyMs(), null))
            .toArray(Row[]::new),
        atDelayMs,
        holdout.stream()
            .map(p -> new Row(p.addedDelayMs(), p.repeat(), p.okLatencyMs(), null))
            .toArray(Row[]::new),
        level);
  }

  private static WhatIf predict(
      WhatIf.Line kind, Row[] fitRows, double x0, Row[] holdRows, double level) {
    Row[] sorted = fitRows.clone();
    Arrays.sort(sorted, Comparator.comparingDouble(Row::x).thenComparingInt(Row::repeat));
    // The fit's own rules (points, delays, duplicates, weights), then the what-if's, all at once.
    Checks checks = check(sorted, level, 0.05);
    checks.nonNegativeFinite("at_delay_ms", x0);
    double minX = sorted.length == 0 ? 0 : sorted[0].x();
    double maxX = sorted.length == 0 ? 0 : sorted[sorted.length - 1].x();
    boolean weighted = sorted.length > 0 && sorted[0].weight() != null;
    for (Row h : holdRows) {
      if (h.x() != x0) {
        checks.add(
            "every holdout repeat must be at the what-if's delay "
                + Fmt.num(x0)
                + " ms, got one at "
                + Fmt.num(h.x())
                + " ms");
      }
      if ((h.weight() != null) != weighted) {
        checks.add("holdout repeats must be weighted exactly when the fitted points are");
      }
    }
    if (holdRows.length == 0 && Double.isFinite(x0) && (x0 < minX || x0 > maxX)) {
      // A line checked by nothing is offered only where it was measured on both sides.
      checks.add(
          "without a holdout the what-if's delay must lie inside the swept delays ["
              + Fmt.delayMs(minX)
              + ", "
              + Fmt.delayMs(maxX)
              + "] ms, got "
              + Fmt.delayMs(x0)
              + " ms; measure holdout cells there to check an extrapolation");
    }
    checks.orThrow();

    int n = sorted.length;
    WeightedLine line = new Columns(sorted).fit();
    int df = n - 2;
    double s2 = line.sse() / df;
    double yHat = line.at(x0);
    double holdW = 0;
    double holdSum = 0;
    for (Row h : holdRows) {
      holdW += h.fitWeight();
      holdSum += h.fitWeight() * h.y();
    }
    // A new mean of weight holdW scatters by s2 / holdW around the line, independently of the
    // line's own error at x0; without a holdout only the line's error counts.
    double variance = line.fittedVariance(x0, s2) + (holdW > 0 ? s2 / holdW : 0);
    double half = Welch.tUpper(df, (1 - level) / 2) * Math.sqrt(variance);
    double yLo = yHat - half;
    double yHi = yHat + half;
    Double yMeasured = holdW > 0 ? holdSum / holdW : null;
    WhatIf.Placement placement =
        yMeasured == null
            ? WhatIf.Placement.NOT_CHECKED
            : (yLo <= yMeasured && yMeasured <= yHi
                ? WhatIf.Placement.INSIDE
                : WhatIf.Placement.OUTSIDE);

    if (kind == WhatIf.Line.LATENCY) {
      double measured = yMeasured == null ? Double.NaN : yMeasured;
      return new WhatIf(
          kind,
          x0,
          yHat,
          yLo,
          yHi,
          level,
          holdRows.length,
          yMeasured,
          placement,
          whatIfWords(kind, x0, yHat, yLo, yHi, level, measured, placement));
    }
    // The ceiling is 1000 / (ms per event): decreasing, so the per-event interval's ends swap. A
    // line that reaches no positive per-event time at x0 predicts no ceiling at all.
    if (!(yHat > 0)) {
      throw new IllegalArgumentException(
          "the ceiling line reaches no positive per-event time at "
              + Fmt.delayMs(x0)
              + " ms ("
              + Fmt.stat(yHat)
              + " ms per event): it predicts no ceiling there");
    }
    double predicted = 1000.0 / yHat;
    double lower = 1000.0 / yHi;
    Double upper = yLo > 0 ? 1000.0 / yLo : null;
    Double measured = yMeasured == null ? null : 1000.0 / yMeasured;
    return new WhatIf(
        kind,
        x0,
        predicted,
        lower,
        upper,
        level,
        holdRows.length,
        measured,
        placement,
        whatIfWords(
            kind,
            x0,
            predicted,
            lower,
            upper == null ? Double.POSITIVE_INFINITY : upper,
            level,
            measured == null ? Double.NaN : measured,
            placement));
  }

  private static String whatIfWords(
      WhatIf.Line kind,
      double x0,
      double predicted,
      double lower,
      double upper,
      double level,
      double measured,
      WhatIf.Placement placement) {
    String unit = kind == WhatIf.Line.CEILING ? "/s" : " ms";
    String what = kind == WhatIf.Line.CEILING ? "ceiling" : "OK latency";
    String hi = Double.isInfinite(upper) ? "unbounded" : Fmt.stat(upper) + unit;
    String prediction =
        "predicted "
            + what
            + " "
            + Fmt.stat(predicted)
            + unit
            + " ["
            + Fmt.stat(lower)
            + unit
            + ", "
            + hi
            + "] ("
            + Fmt.percent(level)
            + "%) at "
            + Fmt.delayMs(x0)
            + " ms";
    return switch (placement) {
      case NOT_CHECKED ->
          prediction + "; no holdout measured there: the line's, checked by nothing";
      case INSIDE -> prediction + "; measured " + Fmt.stat(measured) + unit + ": inside";
      case OUTSIDE ->
          prediction
              + "; measured "
              + Fmt.stat(measured)
              + unit
              + ": outside, the line does not hold out to "
              + Fmt.delayMs(x0)
              + " ms";
    };
  }

  /**
   * TOST of k against a count declared before the run: CONSISTENT when the 1 - 2 alpha interval of
   * k lies inside {@code declared +- margin}. INCONCLUSIVE without a test when the fit is not
   * established: a slope through points that do not lie on a line is not a count of round trips.
   *
   * @param declaredRoundTrips finite, &gt;= 0
   * @param margin finite, &gt; 0, round trips per event (e.g. 0.5)
   * @param alpha each one-sided test's level, in (0, 0.5)
   */
  public static CountCheck againstCount(
      SensitivityFit fit, double declaredRoundTrips, double margin, double alpha) {
    Objects.requireNonNull(fit, "fit must not be null");
    new Checks().nonNegativeFinite("declared_round_trips", declaredRoundTrips).orThrow();
    Estimate k = fit.roundTripsPerEvent();
    Tost tost =
        fit.established()
            ? Tost.of(k.value(), k.standardError(), k.df(), declaredRoundTrips, margin, alpha)
            : Tost.untestable(
                k.value(), declaredRoundTrips, margin, alpha, "k is not established: " + why(fit));
    String head =
        switch (tost.reading()) {
          case CONSISTENT -> "consistent with the declared ";
          case NOT_CONSISTENT -> "not consistent with the declared ";
          case INCONCLUSIVE -> "inconclusive against the declared ";
        };
    String tail =
        tost.reading() == Tost.Reading.INCONCLUSIVE && tost.untestableReason() == null
            ? "; more repeats narrow the interval"
            : "";
    return new CountCheck(
        declaredRoundTrips,
        tost,
        head
            + Fmt.num(declaredRoundTrips)
            + " round trips per event: k = "
            + tost.inWords()
            + tail);
  }

  /**
   * Two arms that differ only in durability: a TOST that their slopes agree within {@code
   * slopeMargin}, and the intercept difference a - b with its interval at {@code level}. Both on
   * Welch-Satterthwaite degrees of freedom from the arms' residual df.
   *
   * @param slopeMargin finite, &gt; 0, round trips per event
   * @param alpha each one-sided test's level, in (0, 0.5)
   * @param level the intercept difference's two-sided level, in (0, 1)
   */
  public static ArmsComparison compareArms(
      SensitivityFit a, SensitivityFit b, double slopeMargin, double alpha, double level) {
    Objects.requireNonNull(a, "a must not be null");
    Objects.requireNonNull(b, "b must not be null");
    Estimate ka = a.roundTripsPerEvent();
    Estimate kb = b.roundTripsPerEvent();
    double slopeSe = Math.hypot(ka.standardError(), kb.standardError());
    Tost slopes;
    if (!a.established() || !b.established()) {
      String which = !a.established() ? "arm a: " + why(a) : "arm b: " + why(b);
      slopes =
          Tost.untestable(
              ka.value() - kb.value(),
              0,
              slopeMargin,
              alpha,
              "a slope is not established, " + which);
    } else {
      slopes =
          Tost.of(ka.value() - kb.value(), slopeSe, satterthwaite(ka, kb), 0, slopeMargin, alpha);
    }
    Estimate ca = a.interceptMsPerEvent();
    Estimate cb = b.interceptMsPerEvent();
    Estimate dc =
        Estimate.of(
            ca.value() - cb.value(),
            Math.hypot(ca.standardError(), cb.standardError()),
            satterthwaite(ca, cb),
            level);
    String msg =
        "slope difference a - b = "
            + slopes.inWords()
            + " round trips per event; intercept difference a - b = "
            + dc.inWords()
            + " ms per event ("
            + Fmt.percent(level)
            + "%)";
    return new ArmsComparison(slopes, dc, msg);
  }

  /** Welch-Satterthwaite df of a difference of two independent estimates. */
  private static double satterthwaite(Estimate a, Estimate b) {
    double va = a.standardError() * a.standardError();
    double vb = b.standardError() * b.standardError();
    double denominator = va * va / a.df() + vb * vb / b.df();
    // Both exactly constant: no variance to weigh, and the interval is a point whatever the df.
    return denominator > 0 ? (va + vb) * (va + vb) / denominator : a.df() + b.df();
  }

  private static String why(SensitivityFit fit) {
    LackOfFit lof = fit.lackOfFit();
    return switch (lof.status()) {
      case REJECTED -> "the line does not hold (" + lof.inWords() + ")";
      case UNTESTABLE -> lof.inWords();
      case NOT_REJECTED -> "the residual scatter is exactly 0, no estimate of sampling error";
    };
  }

  /** Every broken rule, collected, not yet thrown; {@code sorted} by delay, then repeat. */
  private static Checks check(Row[] sorted, double level, double lackOfFitAlpha) {
    Checks checks = new Checks();
    if (!(level > 0 && level < 1)) {
      checks.add("level must be in (0, 1), got " + level);
    }
    if (!(lackOfFitAlpha > 0 && lackOfFitAlpha <= 0.5)) {
      checks.add("lack_of_fit_alpha must be in (0, 0.5], got " + lackOfFitAlpha);
    }
    int weighted = 0;
    int delays = 0;
    for (int i = 0; i < sorted.length; i++) {
      weighted += sorted[i].weight() != null ? 1 : 0;
      boolean newDelay = i == 0 || sorted[i].x() != sorted[i - 1].x();
      delays += newDelay ? 1 : 0;
      if (!newDelay && sorted[i].repeat() == sorted[i - 1].repeat()) {
        checks.add(
            "each (delay, repeat) must appear once, got "
                + Fmt.num(sorted[i].x())
                + " ms repeat "
                + sorted[i].repeat()
                + " twice");
      }
    }
    if (weighted != 0 && weighted != sorted.length) {
      checks.add(
          "weights must be given on every point or on none, got "
              + weighted
              + " of "
              + sorted.length);
    }
    if (sorted.length < 3 || delays < 2) {
      checks.add(
          "a line with an interval needs at least 3 points at 2 distinct delays, got "
              + sorted.length
              + " points at "
              + delays);
    }
    return checks;
  }

  private static String words(
      Estimate k, Estimate c, double level, LackOfFit lof, boolean established, boolean latency) {
    String fit =
        latency
            ? "k = "
                + k.inWords()
                + " round trips per event (ms of OK latency per ms of added round-trip delay),"
                + " OK latency at no added delay "
                + c.inWords()
                + " ms ("
                + Fmt.percent(level)
                + "%); "
            : "k = "
                + k.inWords()
                + " round trips per event, c = "
                + c.inWords()
                + " ms per event ("
                + Fmt.percent(level)
                + "%); ";
    if (established) {
      return fit + "the line holds (" + lof.inWords() + "): k is established";
    }
    if (lof.status() == LackOfFit.Status.REJECTED) {
      StringBuilder names = new StringBuilder();
      for (LevelDeparture l : lof.departing()) {
        names.append(names.length() == 0 ? "" : ", ");
        names.append(Fmt.num(l.addedDelayMs())).append(" ms (");
        names.append(l.standardized() == null ? "n/a" : Fmt.stat(l.standardized())).append(')');
      }
      return fit
          + "the line does not hold ("
          + lof.inWords()
          + "), departing delays "
          + names
          + ": k is not established";
    }
    if (lof.status() == LackOfFit.Status.UNTESTABLE) {
      return fit + lof.inWords() + ": k is not established";
    }
    return fit + "the residual scatter is exactly 0: k is not established";
  }
}
