package dev.ceiling.verdict;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.core.model.SchemaVersion1;
import java.util.Objects;

/**
 * The experiment's report document ({@code report.json}): the identity, both half-runs with every
 * raw cell, and the verdict computed from them, so the verdict can be recomputed from this document
 * alone ({@link #recompute()}).
 *
 * @param schemaVersion must be {@link SchemaVersion#CURRENT}
 * @param identity the experiment's identity
 * @param treatment the treatment half, or null when only the control ran
 * @param control the control half, or null when it was skipped
 * @param verdict the verdict on these halves
 * @param model true when the halves are model output: never evidence, never established
 */
@SchemaVersion1.Upgradable
public record ExperimentReport(
    int schemaVersion,
    ExperimentIdentity identity,
    HalfRun treatment,
    HalfRun control,
    VerdictReport verdict,
    boolean model) {

  public ExperimentReport {
    if (schemaVersion != SchemaVersion.CURRENT) {
      throw new IllegalArgumentException(
          "schema_version must be " + SchemaVersion.CURRENT + ", got " + schemaVersion);
    }
    Objects.requireNonNull(identity, "identity must not be null");
    Objects.requireNonNull(verdict, "verdict must not be null");
    if (treatment == null && control == null) {
      throw new IllegalArgumentException("at least one half must be present, got neither");
    }
    for (HalfRun h : new HalfRun[] {treatment, control}) {
      if (h != null && !h.identity().equals(identity)) {
        throw new IllegalArgumentException(
            "the '" + h.arm() + "' half's identity must equal the report's identity");
      }
    }
    if (treatment != null && !treatment.isTreatment()) {
      throw new IllegalArgumentException(
          "treatment must be the treatment arm, got '" + treatment.arm() + "'");
    }
    if (control != null && control.isTreatment()) {
      throw new IllegalArgumentException(
          "control must be the control arm, got '" + control.arm() + "'");
    }
    String expected = control == null ? VerdictReport.CONTROL_SKIPPED : VerdictReport.CONTROL_RAN;
    if (!expected.equals(verdict.controlMarker())) {
      throw new IllegalArgumentException(
          "verdict.control_marker must be '"
              + expected
              + "' for these halves, got '"
              + verdict.controlMarker()
              + "'");
    }
    if (model && verdict.established()) {
      throw new IllegalArgumentException("a model report can never be established");
    }
  }

  /** The report on a combined run. */
  public static ExperimentReport of(CombinedRun run, VerdictConfig cfg) {
    VerdictReport v = Verdict.evaluate(run, cfg);
    return new ExperimentReport(
        SchemaVersion.CURRENT,
        run.identity(),
        run.treatment(),
        run.control(),
        v,
        isModel(run.treatment()) || isModel(run.control()));
  }

  /** The report on a single half: never established. */
  public static ExperimentReport ofSingleArm(HalfRun half, VerdictConfig cfg) {
    VerdictReport v = Verdict.evaluateSingleArm(half, cfg);
    return new ExperimentReport(
        SchemaVersion.CURRENT,
        half.identity(),
        half.isTreatment() ? half : null,
        half.isTreatment() ? null : half,
        v,
        isModel(half));
  }

  /** Recomputes the verdict from the raw half-runs in this document with its recorded config. */
  public VerdictReport recompute() {
    if (treatment != null && control != null) {
      return Verdict.evaluate(new CombinedRun(identity, treatment, control), verdict.config());
    }
    return Verdict.evaluateSingleArm(treatment != null ? treatment : control, verdict.config());
  }

  /**
   * This document judged again from its raw cells with {@code cfg}: how {@code report} decides,
   * with Ceiling's thresholds rather than the ones the file carries.
   */
  public ExperimentReport rejudged(VerdictConfig cfg) {
    VerdictReport v =
        treatment != null && control != null
            ? Verdict.evaluate(new CombinedRun(identity, treatment, control), cfg)
            : Verdict.evaluateSingleArm(treatment != null ? treatment : control, cfg);
    return new ExperimentReport(schemaVersion, identity, treatment, control, v, model);
  }

  private static boolean isModel(HalfRun h) {
    return h != null && h.rig().relayInfo().containsKey(Model.MARKER_KEY);
  }
}
