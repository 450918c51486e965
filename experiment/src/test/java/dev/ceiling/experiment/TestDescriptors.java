package dev.ceiling.experiment;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.core.testing.HalfRuns;
import java.util.List;
import java.util.Map;

/**
 * Descriptors of a relay the rig did not start, for tests that need only a mapping or relay_info.
 */
final class TestDescriptors {
  private TestDescriptors() {}

  /** {@link HalfRuns#rig}'s descriptor for {@code arm} with this metric mapping and relay_info. */
  static RigDescriptor attached(
      String arm, Map<String, String> metricMapping, Map<String, String> relayInfo) {
    RigDescriptor d = HalfRuns.rig(arm);
    return new RigDescriptor(
        SchemaVersion.CURRENT,
        d.rigId(),
        d.profile(),
        d.arm(),
        null,
        null,
        null,
        null,
        d.healthUrl(),
        d.metricsUrl(),
        d.contaminationEvidence(),
        d.targets(),
        d.limiterSettings(),
        d.queueCapacity(),
        true,
        metricMapping,
        List.of(),
        relayInfo,
        d.relaySourceRevision(),
        null,
        d.relayBinaryDigest(),
        d.generatorVersion(),
        null,
        null);
  }

  /** {@code d} with another control check (a relay the rig started keeps its pid and command). */
  static RigDescriptor withControlCheck(RigDescriptor d, List<String> controlCheck) {
    return new RigDescriptor(
        d.schemaVersion(),
        d.rigId(),
        d.profile(),
        d.arm(),
        d.relayPid(),
        d.relayStartInstant(),
        d.relayCommand(),
        d.relayLog(),
        d.healthUrl(),
        d.metricsUrl(),
        d.contaminationEvidence(),
        d.targets(),
        d.limiterSettings(),
        d.queueCapacity(),
        d.databaseReset(),
        d.metricMapping(),
        d.positiveControlled(),
        d.relayInfo(),
        d.relaySourceRevision(),
        d.relaySourceDiffDigest(),
        d.relayBinaryDigest(),
        d.generatorVersion(),
        d.generatorJarDigest(),
        controlCheck);
  }
}
