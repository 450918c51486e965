package dev.ceiling.verdict;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A candidate run judged against a baseline run of the same plan, the regression gate behind {@code
 * ceiling compare}: the two runs must have offered the same load the same way (the plan); what may
 * differ is the system measured (the relay's build and parameters, Ceiling's own build), and those
 * differences are listed as what changed. The comparison itself is {@link RegressionCheck}'s
 * non-inferiority test on the worker's completion rate. Pure; thread-safe.
 */
public final class BaselineCompare {
  private BaselineCompare() {}

  /**
   * The largest tolerated loss: either in events/s, or as a fraction of the baseline's estimate.
   *
   * @param value events/s (&gt;= 0, finite) when {@code relative} is false; a fraction in [0, 1)
   *     when it is true
   * @param relative true for a fraction of the baseline's worker rate
   */
  public record Margin(double value, boolean relative) {
    public Margin {
      if (!(value >= 0) || Double.isInfinite(value) || (relative && value >= 1)) {
        throw new IllegalArgumentException(
            "margin must be "
                + (relative ? "a fraction in [0, 1)" : "a finite rate >= 0 events/s")
                + ", got "
                + value);
      }
    }

    /** How a user writes it: "5%" or "10/s". */
    public String text() {
      return relative ? Fmt.num(value * 100) + "%" : Fmt.num(value) + "/s";
    }
  }

  /**
   * Every way the two runs' plans differ, one line each naming the field and both values; empty
   * when they are runs of the same plan. The plan is what was offered and how it was measured:
   * profile, arm names, rates, duration, repeats, order and seed, community hosts, limiter
   * settings, measurement settings, the arm compared, and where the contamination evidence came
   * from.
   */
  public static List<String> planDifferences(HalfRun baseline, HalfRun candidate) {
    Objects.requireNonNull(baseline, "baseline must not be null");
    Objects.requireNonNull(candidate, "candidate must not be null");
    ExperimentIdentity b = baseline.identity();
    ExperimentIdentity c = candidate.identity();
    List<String> out = new ArrayList<>();
    field(out, "profile", false, b, c, ExperimentIdentity::profile);
    field(out, "treatment_arm", false, b, c, ExperimentIdentity::treatmentArm);
    field(out, "control_arm", false, b, c, ExperimentIdentity::controlArm);
    field(out, "rates_per_s", false, b, c, ExperimentIdentity::ratesPerS);
    field(out, "duration_s", false, b, c, ExperimentIdentity::durationS);
    field(out, "repeats", false, b, c, ExperimentIdentity::repeats);
    field(out, "order", false, b, c, ExperimentIdentity::order);
    field(out, "order_seed", false, b, c, ExperimentIdentity::orderSeed);
    field(out, "community_hosts", false, b, c, ExperimentIdentity::communityHosts);
    field(out, "limiter_settings", false, b, c, ExperimentIdentity::limiterSettings);
    field(out, "measurement", false, b, c, ExperimentIdentity::measurement);
    field(out, "arm", false, baseline, candidate, HalfRun::arm);
    field(
        out,
        "contamination_evidence",
        false,
        baseline,
        candidate,
        h -> h.rig().contaminationEvidence());
    return out;
  }

  /**
   * What changed in the system measured, one line each ({@code relay_parameters.exchange_delay_ms 2
   * -> 6}); empty when the runs measured the same build with the same parameters.
   */
  public static List<String> changes(HalfRun baseline, HalfRun candidate) {
    ExperimentIdentity b = baseline.identity();
    ExperimentIdentity c = candidate.identity();
    List<String> out = new ArrayList<>();
    field(out, "relay_source_revision", true, b, c, ExperimentIdentity::relaySourceRevision);
    field(out, "relay_source_diff_digest", true, b, c, ExperimentIdentity::relaySourceDiffDigest);
    field(out, "relay_binary_digest", true, b, c, ExperimentIdentity::relayBinaryDigest);
    field(out, "queue_capacity", true, b, c, ExperimentIdentity::queueCapacity);
    field(out, "generator_identity", true, b, c, ExperimentIdentity::generatorIdentity);
    Map<String, String> pb = b.relayParameters();
    Map<String, String> pc = c.relayParameters();
    TreeSet<String> keys = new TreeSet<>(pb.keySet());
    keys.addAll(pc.keySet());
    for (String k : keys) {
      if (!Objects.equals(pb.get(k), pc.get(k))) {
        out.add("relay_parameters." + k + " " + pb.get(k) + " -> " + pc.get(k));
      }
    }
    return out;
  }

  /**
   * The non-inferiority test on the worker's completion rate (from each run's steady, busy evidence
   * cells, as {@link RegressionCheck#workerRate} takes them), at {@code cfg}'s family alpha. A
   * relative margin becomes {@code value x} the baseline's estimate (see {@link #relative}).
   */
  public static RegressionResult workerRate(
      HalfRun baseline, HalfRun candidate, Margin margin, VerdictConfig cfg) {
    double marginPerS = margin.value();
    if (margin.relative()) {
      WorkerRate w = Verdict.evaluateSingleArm(baseline, cfg).workerRate();
      // No baseline estimate: the test below reports that the baseline has no cells to compare.
      marginPerS = w == null ? 0 : margin.value() * w.estimatePerS();
    }
    return RegressionCheck.workerRate(baseline, candidate, marginPerS, cfg);
  }

  /**
   * The relative-margin test on raw values: H0 mean(candidate) &lt;= (1 - fraction) mean(baseline),
   * tested as {@link RegressionCheck#nonInferior} with the margin {@code fraction x
   * mean(baseline)}. Taking the margin from the baseline's sample mean errs on the safe side: the
   * test's standard error counts the baseline's variance in full, while the statistic's own
   * variance holds only (1 - fraction)^2 of it, so the false-pass rate at the margin stays at or
   * below alpha (checked by a seeded simulation).
   *
   * @param fraction in [0, 1)
   */
  public static RegressionResult relative(
      String metric, double[] baseline, double[] candidate, double fraction, double alpha) {
    new Margin(fraction, true);
    double mean = 0;
    for (double v : baseline) {
      mean += v / baseline.length;
    }
    return RegressionCheck.nonInferior(metric, baseline, candidate, fraction * mean, alpha);
  }

  /** Adds a line when the field differs: a plan difference, or (asChange) a change. */
  private static <S, T> void field(
      List<String> out, String name, boolean asChange, S b, S c, Function<S, T> get) {
    Object vb = get.apply(b);
    Object vc = get.apply(c);
    if (!Objects.equals(vb, vc)) {
      out.add(
          asChange
              ? name + " " + vb + " -> " + vc
              : name + " differs: baseline " + vb + " vs candidate " + vc);
    }
  }
}
