package dev.ceiling.experiment;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.VerdictConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One experiment's settings, validated and immutable: what {@link Experiment.Builder} builds and
 * every phase reads.
 *
 * @param rates the fixed offered-rate grid, events/s, ascending (unused when {@code
 *     autoRateMultiples} is set)
 * @param autoRateMultiples multiples of the relay's predicted ceiling, or null for fixed rates
 * @param seed the shuffle seed, or null for ascending order
 * @param equivalenceMargin the predeclared equivalence margin delta, or null for none
 * @param renderers further files rendered from the report, by file name, in order
 */
record RunOptions(
    RelayProfile profile,
    List<Double> rates,
    List<Double> autoRateMultiples,
    Duration duration,
    int repeats,
    Long seed,
    Double equivalenceMargin,
    Map<String, String> relayOverrides,
    SweepOptions sweepOptions,
    VerdictConfig verdictConfig,
    Path outDir,
    ExperimentProgress progress,
    boolean installShutdownHook,
    boolean resume,
    Duration shutdownGrace,
    Map<String, Function<ExperimentReport, String>> renderers) {
  RunOptions {
    rates = List.copyOf(rates);
    autoRateMultiples = autoRateMultiples == null ? null : List.copyOf(autoRateMultiples);
    relayOverrides = Map.copyOf(relayOverrides);
    renderers = Collections.unmodifiableMap(new LinkedHashMap<>(renderers));
  }

  /** The treatment arm, then the control arm: the order the arms run in. */
  List<String> arms() {
    return List.of(profile.treatmentArm(), profile.controlArm());
  }

  double durationS() {
    return duration.toNanos() / 1e9;
  }

  /** The identity of this experiment measured against {@code rig} with this grid. */
  ExperimentIdentity identity(RigDescriptor rig, List<Double> ratesPerS) {
    return Identities.of(
            profile, rig, ratesPerS, durationS(), repeats, seed, sweepOptions.measurement())
        .withEquivalenceMargin(equivalenceMargin);
  }

  Path halfFile(String arm) {
    return outDir.resolve("half-" + arm + ".json");
  }

  Path journalFile(String arm) {
    return outDir.resolve("journal-" + arm + ".jsonl");
  }

  Path rigStateDir(String arm) {
    return outDir.resolve("rig-" + arm);
  }
}
