package dev.ceiling.verdict;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Pairs a treatment half with a control half, refusing anything that would make the comparison
 * between them meaningless. Pure; thread-safe.
 */
public final class Combine {
  private Combine() {}

  /**
   * Combines two half-runs given in either order.
   *
   * @throws CombineException listing EVERY mismatch: both halves of one arm, any differing identity
   *     field (rates, duration, repeats, order policy and seed, community hosts, limiter settings,
   *     queue capacity, generator identity, relay source revision and digests, profile, arm names,
   *     measurement settings: warm-up, grace period, send-lag bound; the equivalence margin), a
   *     half measured on a rig running the other arm, or a half whose rig's queue capacity or
   *     limiter settings disagree with its identity, or halves whose contamination evidence differs
   *     (one from the relay's counters, the other from the generator alone)
   */
  public static CombinedRun combine(HalfRun a, HalfRun b) throws CombineException {
    Objects.requireNonNull(a, "first half must not be null");
    Objects.requireNonNull(b, "second half must not be null");
    List<String> problems = new ArrayList<>();
    ExperimentIdentity x = a.identity();
    ExperimentIdentity y = b.identity();
    field(problems, "profile", x, y, ExperimentIdentity::profile);
    field(problems, "treatment_arm", x, y, ExperimentIdentity::treatmentArm);
    field(problems, "control_arm", x, y, ExperimentIdentity::controlArm);
    field(problems, "rates_per_s", x, y, ExperimentIdentity::ratesPerS);
    field(problems, "duration_s", x, y, ExperimentIdentity::durationS);
    field(problems, "repeats", x, y, ExperimentIdentity::repeats);
    field(problems, "order", x, y, ExperimentIdentity::order);
    field(problems, "order_seed", x, y, ExperimentIdentity::orderSeed);
    field(problems, "community_hosts", x, y, ExperimentIdentity::communityHosts);
    field(problems, "limiter_settings", x, y, ExperimentIdentity::limiterSettings);
    field(problems, "queue_capacity", x, y, ExperimentIdentity::queueCapacity);
    field(problems, "generator_identity", x, y, ExperimentIdentity::generatorIdentity);
    field(problems, "relay_source_revision", x, y, ExperimentIdentity::relaySourceRevision);
    field(problems, "relay_source_diff_digest", x, y, ExperimentIdentity::relaySourceDiffDigest);
    field(problems, "relay_binary_digest", x, y, ExperimentIdentity::relayBinaryDigest);
    field(problems, "relay_parameters", x, y, ExperimentIdentity::relayParameters);
    field(problems, "measurement", x, y, ExperimentIdentity::measurement);
    if (!Objects.equals(x.equivalenceMargin(), y.equivalenceMargin())) {
      // Declared before the first cell: a margin chosen for one half only, or changed between the
      // halves, would be a margin chosen after seeing data.
      problems.add(
          "equivalence_margin differs: "
              + margin(x)
              + " in the '"
              + a.arm()
              + "' half vs "
              + margin(y)
              + " in the '"
              + b.arm()
              + "' half; the margin is declared before the run, so these are two experiments");
    }

    HalfRun treatment = null;
    HalfRun control = null;
    boolean aT = a.arm().equals(x.treatmentArm());
    boolean bT = b.arm().equals(y.treatmentArm());
    if (aT == bT) {
      problems.add(
          "both halves are the "
              + (aT ? "treatment" : "control")
              + " arm ('"
              + a.arm()
              + "' and '"
              + b.arm()
              + "'): a combined run needs one of each");
    } else {
      treatment = aT ? a : b;
      control = aT ? b : a;
    }
    for (HalfRun h : List.of(a, b)) {
      if (!h.rig().arm().equals(h.arm())) {
        problems.add(
            "the '" + h.arm() + "' half was measured on a rig running arm '" + h.rig().arm() + "'");
      }
      // The identity is what the halves are compared on; the rig is what actually ran.
      // A control arm may run without the queue at all (null); a stated capacity must agree.
      boolean noQueueControl = !h.isTreatment() && h.rig().queueCapacity() == null;
      if (!noQueueControl
          && !Objects.equals(h.rig().queueCapacity(), h.identity().queueCapacity())) {
        problems.add(
            "the '"
                + h.arm()
                + "' half's rig has queue_capacity "
                + h.rig().queueCapacity()
                + " but its identity says "
                + h.identity().queueCapacity());
      }
      if (!Objects.equals(h.rig().limiterSettings(), h.identity().limiterSettings())) {
        problems.add(
            "the '"
                + h.arm()
                + "' half's rig has limiter_settings "
                + h.rig().limiterSettings()
                + " but its identity says "
                + h.identity().limiterSettings());
      }
    }
    // Each half's cells were excluded (or kept) by its own evidence: counters in one, only what the
    // generator saw in the other. A cell the metrics half would exclude for a silent admission
    // rejection passes unseen in the client half, so the two cannot be compared; and the verdict
    // could not say which label its pass deserves.
    String ea = a.rig().contaminationEvidence();
    String eb = b.rig().contaminationEvidence();
    if (!Objects.equals(ea, eb)) {
      problems.add(
          "contamination_evidence differs: '"
              + a.arm()
              + "' half "
              + ea
              + " vs '"
              + b.arm()
              + "' half "
              + eb
              + " (the halves' cells were excluded by different evidence)");
    }
    if (!problems.isEmpty()) {
      throw new CombineException(problems);
    }
    return new CombinedRun(x, treatment, control);
  }

  private static String margin(ExperimentIdentity id) {
    return id.equivalenceMargin() == null ? "none" : Fmt.num(id.equivalenceMargin());
  }

  private static <T> void field(
      List<String> out,
      String name,
      ExperimentIdentity x,
      ExperimentIdentity y,
      Function<ExperimentIdentity, T> get) {
    Object vx = get.apply(x);
    Object vy = get.apply(y);
    if (!Objects.equals(vx, vy)) {
      out.add(name + " differs: " + vx + " vs " + vy);
    }
  }
}
