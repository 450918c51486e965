package dev.ceiling.rig;

import dev.ceiling.core.model.Target;
import dev.ceiling.rig.internal.Probe;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything {@code up} will do, decided before anything is touched: a profile and options with
 * every placeholder expanded. Made by {@link LaunchPlanner}; a plan is only made once every URL is
 * loopback and (unless attaching) the command carries the rig id.
 *
 * @param rigId the unique {@code ceiling-rig-<uuid>}, also an argument on {@code command}
 * @param stateDir the absolute state directory
 * @param dataDir the relay's {@code ${data_dir}}
 * @param log the relay's log file
 * @param ports effective ports by name
 * @param placeholders every placeholder's value, as expanded
 * @param command the relay's argv: profile command, arm, limiter, reset and extra arguments
 * @param environment added to the relay's environment
 * @param healthUrl the health URL, or null when the profile has none
 * @param metricsUrl the metrics URL, or null for a relay without metrics
 * @param targets the communities, expanded
 * @param limiter limiter setting name to raised value
 * @param probe how readiness is asked
 * @param upstreams each declared upstream's target and the address the relay was given
 * @param sourceDir the relay's checkout for provenance, or null
 * @param binary the relay's binary, jar or classes directory to digest, or null
 * @param workingDirectory the directory the relay starts in: the profile's working_directory, or
 *     the state directory
 */
record LaunchPlan(
    String rigId,
    Path stateDir,
    Path dataDir,
    Path log,
    Map<String, Integer> ports,
    Map<String, String> placeholders,
    List<String> command,
    Map<String, String> environment,
    String healthUrl,
    String metricsUrl,
    List<Target> targets,
    Map<String, String> limiter,
    Probe probe,
    List<UpstreamRoute> upstreams,
    Path sourceDir,
    Path binary,
    Path workingDirectory) {

  LaunchPlan {
    Objects.requireNonNull(rigId, "rig_id must not be null");
    Objects.requireNonNull(stateDir, "state_dir must not be null");
    Objects.requireNonNull(dataDir, "data_dir must not be null");
    Objects.requireNonNull(log, "log must not be null");
    ports = Map.copyOf(ports);
    placeholders = Map.copyOf(placeholders);
    command = List.copyOf(command);
    environment = Map.copyOf(environment);
    targets = List.copyOf(targets);
    limiter = Map.copyOf(limiter);
    Objects.requireNonNull(probe, "probe must not be null");
    upstreams = List.copyOf(upstreams);
    Objects.requireNonNull(workingDirectory, "working_directory must not be null");
  }
}
