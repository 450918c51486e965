package dev.ceiling.experiment;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import dev.ceiling.rig.RelayProfile;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds an experiment's identity from the profile and the descriptor of the relay that was
 * actually brought up, so `experiment` and a hand-run `sweep` pin the same facts the same way.
 */
public final class Identities {
  private Identities() {}

  /**
   * The identity of an experiment measured against {@code rig}.
   *
   * @param rates offered rates, events/s, ascending
   * @param durationS each window, seconds
   * @param repeats repeats per rate
   * @param seed shuffle seed, or null for ascending order
   * @param measurement the sweep's warm-up, grace period and send-lag bound
   * @return the identity without an equivalence question; {@link
   *     ExperimentIdentity#withEquivalenceMargin} adds one
   */
  public static ExperimentIdentity of(
      RelayProfile profile,
      RigDescriptor rig,
      List<Double> rates,
      double durationS,
      int repeats,
      Long seed,
      MeasurementSettings measurement) {
    return new ExperimentIdentity(
        profile.name(),
        profile.treatmentArm(),
        profile.controlArm(),
        rates,
        durationS,
        repeats,
        seed == null ? "ascending" : "shuffled",
        seed,
        rig.targets().stream().map(Target::effectiveHost).toList(),
        rig.limiterSettings(),
        rig.queueCapacity(),
        rig.generatorVersion()
            + (rig.generatorJarDigest() == null ? "" : "@" + rig.generatorJarDigest()),
        rig.relaySourceRevision(),
        rig.relaySourceDiffDigest(),
        rig.relayBinaryDigest(),
        relayParameters(rig),
        java.util.Objects.requireNonNull(measurement, "measurement"),
        null);
  }

  /**
   * The parameters the relay ran with, as the rig recorded them ({@code parameter.*} in its
   * relay_info), plus the queue capacity. Ports are not among them: they differ between runs
   * without changing what is measured.
   */
  static Map<String, String> relayParameters(RigDescriptor rig) {
    Map<String, String> out = new TreeMap<>();
    rig.relayInfo()
        .forEach(
            (k, v) -> {
              if (k.startsWith("parameter.")) {
                out.put(k.substring("parameter.".length()), v);
              }
            });
    if (rig.queueCapacity() != null) {
      out.put("queue_capacity", Integer.toString(rig.queueCapacity()));
    }
    return out;
  }
}
