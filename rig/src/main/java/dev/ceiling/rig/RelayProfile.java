package dev.ceiling.rig;

import dev.ceiling.core.io.InputFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A relay the rig can run: how to start it, where it listens, how each arm is selected, which
 * limiter settings the rig raises, which metric series mean what, and where the generator
 * publishes. Read from JSON (see docs/RIG.md) by {@link #load(Path)} or {@link #builtIn(String)};
 * strings may hold {@code ${name}} placeholders, expanded by the rig at {@code up}.
 *
 * <p>Immutable and thread-safe. Instances are only made by the reader, which validates every field
 * and every placeholder and reports all problems at once.
 *
 * @param name the profile's name, non-blank
 * @param description one line for humans, or null
 * @param command the relay's argv template, non-empty
 * @param environment extra environment variables (templates)
 * @param ports named ports, each 1..65535; each name is also a placeholder
 * @param parameters named values with defaults that {@link UpOptions#overrides()} may change; each
 *     name is also a placeholder (e.g. {@code exchange_delay_ms})
 * @param secretParameters names of parameters marked secret in the profile; with every name that
 *     matches {@link #SECRET_NAME} they are secret ({@link #isSecret}): their values never appear
 *     in the descriptor, output, journals or reports, only a digest
 * @param healthUrl template of the URL that returns 200 when the relay is ready, or null when
 *     readiness is "websocket" or "tcp:NAME"
 * @param metricsUrl template of the Prometheus text endpoint, or null for a relay without metrics
 * @param contaminationEvidence {@link Evidence#METRICS} (the relay's counters, mapped by
 *     metricMapping) or {@link Evidence#CLIENT} (no metrics: what the generator sees stands in)
 * @param readiness how the rig asks whether the relay serves: {@link Readiness.HttpHealth} (GET
 *     healthUrl returns 200), {@link Readiness.WebSocketHandshake} (a handshake on the first
 *     target's URL succeeds) or {@link Readiness.TcpAccept} (the named port accepts)
 * @param readyLinePrefix when non-null, the first log line starting with it is parsed as {@code
 *     key=value} pairs into the descriptor's relay_info
 * @param treatmentArm the arm under test (the code path on)
 * @param controlArm the arm it is compared with (the code path off)
 * @param arms every arm's selection, keyed by arm name; holds treatment and control
 * @param reset how to give the relay a fresh database
 * @param limiter the admission-limiter settings the rig applies, with their raised values
 * @param metricMapping role key ({@code MetricRole.key()}) to series selector
 * @param positiveControlled role keys whose series appear only once they move
 * @param targets the communities to publish into (templates)
 * @param upstreams the TCP services the relay talks to (a database, a cache), each reached through
 *     a delay proxy the rig starts; the relay's command learns the address from {@code
 *     ${upstream.NAME.host}}, {@code ${upstream.NAME.port}} and {@code ${upstream.NAME.address}}
 * @param delayControls delays the relay injects itself, each settable while it runs: links a delay
 *     sweep can move without a proxy
 * @param queueCapacity the audit queue's capacity, or null when the relay has none; placeholder
 *     {@code queue_capacity}
 * @param sourceDir the relay's source checkout (for revision and diff digest), or null
 * @param binaryPath template of the relay's binary or jar (or classes directory) to digest, or null
 * @param workingDirectory template of the directory the relay is started in (relative to baseDir),
 *     or null for the state directory; for a relay that reads files relative to its working
 *     directory, since a {@code sh -c 'cd ...'} wrapper would hide the relay's own command line
 * @param admissionLimits the relay's stock admission limits (per what, how many, over what window,
 *     for which kinds, how a refusal shows), for the defaults round; empty when none are declared
 * @param controlCheck argv template of a command whose output must not change across a cell of the
 *     control arm (e.g. a row count of the relay's audit table), or null; run before and after each
 *     control cell by the sweep, from the descriptor's expanded copy
 * @param origin where the profile came from (file path or "built-in:NAME"), for messages
 * @param baseDir directory relative sourceDir/binaryPath resolve against, or null for the working
 *     directory
 */
public record RelayProfile(
    String name,
    String description,
    List<String> command,
    Map<String, String> environment,
    Map<String, Integer> ports,
    Map<String, String> parameters,
    java.util.Set<String> secretParameters,
    String healthUrl,
    String metricsUrl,
    Evidence contaminationEvidence,
    Readiness readiness,
    String readyLinePrefix,
    String treatmentArm,
    String controlArm,
    Map<String, Selection> arms,
    Selection reset,
    List<LimiterSetting> limiter,
    Map<String, String> metricMapping,
    List<String> positiveControlled,
    List<TargetTemplate> targets,
    List<UpstreamTemplate> upstreams,
    List<DelayControlTemplate> delayControls,
    Integer queueCapacity,
    String sourceDir,
    String binaryPath,
    String workingDirectory,
    List<AdmissionLimit> admissionLimits,
    List<String> controlCheck,
    String origin,
    Path baseDir) {

  /** Parameter names that are secret without being marked: passwords, secrets, tokens. */
  public static final java.util.regex.Pattern SECRET_NAME =
      java.util.regex.Pattern.compile(
          ".*(password|passwd|secret|token).*", java.util.regex.Pattern.CASE_INSENSITIVE);

  /** True when the parameter's value must never leave the process in clear. */
  public boolean isSecret(String parameter) {
    return secretParameters.contains(parameter) || SECRET_NAME.matcher(parameter).matches();
  }

  /**
   * The links a delay sweep can move, by name: the upstreams (through a proxy), then the delay
   * controls (the relay's own delay).
   */
  public List<String> linkNames() {
    List<String> out = new java.util.ArrayList<>();
    upstreams.forEach(u -> out.add(u.name()));
    delayControls.forEach(c -> out.add(c.name()));
    return out;
  }

  /** The secret parameters' effective values (defaults overridden by {@code overrides}). */
  public Map<String, String> secretValues(Map<String, String> overrides) {
    Map<String, String> out = new java.util.TreeMap<>();
    parameters.forEach(
        (k, v) -> {
          if (isSecret(k)) {
            out.put(k, overrides.getOrDefault(k, v));
          }
        });
    return out;
  }

  /**
   * The built-in profiles, by name. {@code reference-linked} is {@code reference} with its H2 link
   * declared as the upstream {@code db}, for delay sweeps. It is a profile of its own rather than
   * an upstream added to {@code reference}: a proxied link adds a hop to every audit exchange, and
   * the main job's figures and CI's known answers are tuned on the direct link. {@code
   * reference-postgres-linked} is the same relay auditing to a PostgreSQL server of the user's
   * (parameters {@code pg_host}, {@code pg_port}, {@code pg_database}, {@code pg_user}, {@code
   * synchronous_commit}), its link declared as {@code db}. {@code reference-defaults} is {@code
   * reference} with its admission limiter at the relay's own defaults (10 events/s per identity
   * over a 5 s window) instead of raised, for the defaults round.
   */
  public static final List<String> BUILT_IN =
      List.of("reference", "reference-linked", "reference-postgres-linked", "reference-defaults");

  public RelayProfile {
    command = List.copyOf(command);
    environment = Map.copyOf(environment);
    ports = Map.copyOf(ports);
    parameters = Map.copyOf(parameters);
    secretParameters = java.util.Set.copyOf(secretParameters);
    arms = Map.copyOf(arms);
    limiter = List.copyOf(limiter);
    metricMapping = Map.copyOf(metricMapping);
    positiveControlled = List.copyOf(positiveControlled);
    targets = List.copyOf(targets);
    upstreams = List.copyOf(upstreams);
    delayControls = List.copyOf(delayControls);
    admissionLimits = List.copyOf(admissionLimits);
    controlCheck = controlCheck == null ? null : List.copyOf(controlCheck);
    java.util.Objects.requireNonNull(
        contaminationEvidence, "contamination_evidence must not be null");
    java.util.Objects.requireNonNull(readiness, "readiness must not be null");
  }

  /**
   * Extra arguments and environment that select something (an arm, a reset). Templates.
   *
   * @param args appended to the command line
   * @param env added to the environment
   */
  public record Selection(List<String> args, Map<String, String> env) {
    public Selection {
      args = List.copyOf(args);
      env = Map.copyOf(env);
    }

    public static Selection none() {
      return new Selection(List.of(), Map.of());
    }
  }

  /**
   * One admission-limiter setting and the raised value the rig applies, so the limiter cannot be
   * the binding constraint. {@code ${value}} in args/env is the value.
   *
   * @param name the setting's name as reported in the descriptor (e.g. human_ws_events_per_sec)
   * @param value the raised value
   * @param args appended to the command line
   * @param env added to the environment
   */
  public record LimiterSetting(
      String name, String value, List<String> args, Map<String, String> env) {
    public LimiterSetting {
      args = List.copyOf(args);
      env = Map.copyOf(env);
    }
  }

  /**
   * A community target before placeholder expansion; becomes a core {@code Target}.
   *
   * @param community the community's name
   * @param url ws:// URL template
   * @param hostHeader Host header template, or null
   * @param tags tags on every event
   * @param kind the event kind
   * @param contentBytes content size, bytes
   */
  public record TargetTemplate(
      String community,
      String url,
      String hostHeader,
      List<List<String>> tags,
      int kind,
      int contentBytes) {
    public TargetTemplate {
      tags = tags.stream().map(List::copyOf).toList();
    }
  }

  /**
   * A delay the relay injects itself, on a link no proxy can reach (inside its process, say), that
   * it lets a client set while it runs: a delay sweep's link without a proxy. The relay's own
   * counter of the round trips it delays stands in for a proxy's wire count.
   *
   * @param name the link's name ({@code [A-Za-z0-9_-]+}), unique among upstreams and controls
   * @param url template of the loopback URL whose {@code PUT} (body: the added delay in ms, a
   *     decimal number) sets the delay; placeholders as in {@code health_url}
   * @param turnsMetric selector of the relay's counter of the delayed round trips, on {@code
   *     metrics_url}
   * @param latenessMetric selector of the relay's counter of seconds its delays ended after they
   *     were due, summed over those round trips, or null when it has none; with it the sweep fits
   *     on the delay really added, as it does with a proxy's release lateness
   */
  public record DelayControlTemplate(
      String name, String url, String turnsMetric, String latenessMetric) {}

  /**
   * A TCP service the relay talks to, declared so the rig can put a delay proxy on the link.
   *
   * @param name the link's name ({@code [A-Za-z0-9_-]+}), e.g. {@code db}
   * @param target {@code host:port} template of the real service; placeholders are the profile's
   *     ports and parameters
   */
  public record UpstreamTemplate(String name, String target) {
    /** The placeholders that carry the address the relay should use, by suffix. */
    public static final List<String> PLACEHOLDER_SUFFIXES = List.of("host", "port", "address");

    /** {@code upstream.NAME.SUFFIX}, one of {@link #PLACEHOLDER_SUFFIXES}. */
    public String placeholder(String suffix) {
      return "upstream." + name + "." + suffix;
    }
  }

  /**
   * Reads a profile file, checking every field.
   *
   * @throws RigException listing every problem, each naming the file and the field
   */
  public static RelayProfile load(Path file) throws RigException {
    String text;
    try {
      text = InputFiles.readText(file, InputFiles.MAX_PROFILE_BYTES);
    } catch (IOException e) {
      throw RigException.profile(file.toString(), List.of(e.getMessage()));
    }
    Path dir = file.toAbsolutePath().getParent();
    return ProfileReader.read(text, file.toString(), dir);
  }

  /**
   * A built-in profile (see {@link #BUILT_IN}).
   *
   * @throws RigException if there is no such built-in
   */
  public static RelayProfile builtIn(String name) throws RigException {
    String resource = "profiles/" + name + ".json";
    try (InputStream in = RelayProfile.class.getResourceAsStream(resource)) {
      if (in == null || !BUILT_IN.contains(name)) {
        throw RigException.profile(
            "built-in:" + name,
            List.of("no built-in profile named '" + name + "'; built-ins: " + BUILT_IN));
      }
      return ProfileReader.read(
          new String(in.readAllBytes(), StandardCharsets.UTF_8), "built-in:" + name, null);
    } catch (IOException e) {
      throw RigException.profile("built-in:" + name, List.of("cannot read resource: " + e));
    }
  }

  /** A built-in name, or else a file path. */
  public static RelayProfile resolve(String nameOrFile) throws RigException {
    return BUILT_IN.contains(nameOrFile) ? builtIn(nameOrFile) : load(Path.of(nameOrFile));
  }

  /** One line describing this profile. */
  public String summary() {
    return "profile "
        + name
        + " ("
        + origin
        + "): arms "
        + treatmentArm
        + "/"
        + controlArm
        + ", ports "
        + new java.util.TreeMap<>(ports)
        + ", "
        + targets.size()
        + " target(s), queue capacity "
        + queueCapacity;
  }
}
