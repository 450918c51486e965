package dev.ceiling.experiment;

import dev.ceiling.verdict.ArmsComparison;
import dev.ceiling.verdict.Estimate;
import dev.ceiling.verdict.Sensitivity;
import dev.ceiling.verdict.Tost;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * {@code contrast.json}: one delay sweep's plan run on two arms of a relay that differ only in the
 * contrast's parameters (synchronous commit on and off, say). Written before the first cell, with
 * the contrast declared beside the plan, and again after each arm. The exchanges are the same in
 * both arms, so their slopes must agree; the intercepts then differ by what the parameters cost per
 * event at zero added delay.
 *
 * <p>The arms run one after the other, base first, each on a relay of its own: the intercept
 * difference also holds whatever the machine did differently between them, and the answer says so.
 *
 * @param schema always {@link #SCHEMA}
 * @param plan the plan both arms run, fixed before the base arm's first cell
 * @param contrastParameters the parameters the contrast arm's relay starts with, on top of the
 *     base's
 * @param base the base arm's report, or null before its first cell
 * @param contrast the contrast arm's report, or null when it has not run (or the base arm did not
 *     complete, so there is nothing to compare it with)
 * @param comparison the slopes' TOST within the plan's margin and the intercept difference base -
 *     contrast, ms per event; null while either arm has no fit
 * @param established both arms complete with established lines, and their slopes consistent
 * @param answer the outcome in one sentence
 */
public record DelaySweepContrast(
    String schema,
    DelaySweepPlan plan,
    Map<String, String> contrastParameters,
    DelaySweepReport base,
    DelaySweepReport contrast,
    ArmsComparison comparison,
    boolean established,
    String answer) {

  /** The document's schema name and version. */
  public static final String SCHEMA = "ceiling-sensitivity-contrast/1";

  /** The file the contrast writes in the sweep's output directory. */
  public static final String FILE = "contrast.json";

  public DelaySweepContrast {
    Objects.requireNonNull(plan, "plan must not be null");
    contrastParameters = Map.copyOf(contrastParameters);
    Objects.requireNonNull(answer, "answer must not be null");
  }

  /**
   * The contrast of what has been measured so far: the comparison once both arms have a fit, and
   * the answer in words. Pure: two arms measured separately on one plan compare the same way.
   *
   * @param base the base arm's report, or null before it ran
   * @param contrast the contrast arm's report, or null before it ran
   * @param why why the contrast arm did not run, or null when it did or is still to run
   */
  public static DelaySweepContrast of(
      DelaySweepPlan plan,
      Map<String, String> parameters,
      DelaySweepReport base,
      DelaySweepReport contrast,
      String why) {
    ArmsComparison cmp =
        base == null || contrast == null || base.fit() == null || contrast.fit() == null
            ? null
            : Sensitivity.compareArms(
                base.fit(), contrast.fit(), plan.margin(), 1 - plan.level(), plan.level());
    boolean established =
        cmp != null
            && base.established()
            && contrast.established()
            && cmp.slopeDifference().reading() == Tost.Reading.CONSISTENT;
    return new DelaySweepContrast(
        SCHEMA,
        plan,
        parameters,
        base,
        contrast,
        cmp,
        established,
        answer(parameters, base, contrast, cmp, why));
  }

  /** The answer first: whether the slopes agree, and what the contrast costs per event. */
  static String answer(
      Map<String, String> parameters,
      DelaySweepReport base,
      DelaySweepReport contrast,
      ArmsComparison cmp,
      String why) {
    String name = "the contrast " + new java.util.TreeMap<>(parameters);
    if (base == null) {
      return name + " is declared; the base arm has not measured a cell yet";
    }
    if (contrast == null) {
      return name
          + " did not run"
          + (why == null ? " yet" : ": " + why)
          + "; the base arm: "
          + base.answer();
    }
    if (cmp == null) {
      return "no comparison with "
          + name
          + ": "
          + (base.fit() == null ? "the base arm has no line (" + base.fitProblem() + ")" : "")
          + (base.fit() == null && contrast.fit() == null ? "; " : "")
          + (contrast.fit() == null
              ? "the contrast arm has no line (" + contrast.fitProblem() + ")"
              : "")
          + partial(base, contrast);
    }
    Tost slopes = cmp.slopeDifference();
    Estimate dc = cmp.interceptDifferenceMsPerEvent();
    String same =
        switch (slopes.reading()) {
          case CONSISTENT -> "the same round trips per event in both arms";
          case NOT_CONSISTENT -> "different round trips per event in the two arms";
          case INCONCLUSIVE -> "round trips per event not shown to agree";
        };
    return String.format(
        Locale.ROOT,
        "%s: %s; per event at zero added delay, base - contrast = %.3f ms [%.3f, %.3f] (%d%%),"
            + " the arms measured one after the other%s (%s)",
        name,
        same,
        dc.value(),
        dc.lower(),
        dc.upper(),
        Math.round(dc.level() * 100),
        partial(base, contrast),
        cmp.message());
  }

  /** Which arm did not complete and why (an interrupt, say); "" when both did. */
  private static String partial(DelaySweepReport base, DelaySweepReport contrast) {
    return !base.complete()
        ? "; partial: the base arm " + base.incompleteReason()
        : !contrast.complete() ? "; partial: the contrast arm " + contrast.incompleteReason() : "";
  }

  /**
   * The worse arm's failure first; otherwise whether the contrast is established. {@code notRun} is
   * why the contrast arm did not run, or null when it ran.
   */
  static Outcome outcome(
      DelaySweepResult base, DelaySweepResult arm, RoundEnd notRun, DelaySweepContrast contrast) {
    for (DelaySweepResult r : java.util.Arrays.asList(base, arm)) {
      if (r != null
          && (r.outcome() == Outcome.INFRASTRUCTURE || r.outcome() == Outcome.BAD_INPUT)) {
        return r.outcome();
      }
    }
    if (arm == null && notRun != null && notRun.failed() && base.report().complete()) {
      return Outcome.INFRASTRUCTURE;
    }
    return contrast.established() ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED;
  }
}
