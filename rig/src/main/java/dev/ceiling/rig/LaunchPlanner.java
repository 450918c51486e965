package dev.ceiling.rig;

import dev.ceiling.core.model.Target;
import dev.ceiling.core.net.Loopback;
import dev.ceiling.core.os.JavaExecutable;
import dev.ceiling.rig.RelayProfile.LimiterSetting;
import dev.ceiling.rig.RelayProfile.Selection;
import dev.ceiling.rig.RelayProfile.TargetTemplate;
import dev.ceiling.rig.internal.Probe;
import dev.ceiling.rig.internal.ProcessInspector;
import dev.ceiling.rig.internal.StateDirectory;
import dev.ceiling.rig.internal.Templates;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Expands a profile and options into a {@link LaunchPlan}. Pure: it reads no file and starts
 * nothing (the reference relay's jar is found through the injected source, only when the profile
 * names it), so every refusal here happens before the state directory is touched.
 */
final class LaunchPlanner {
  /** Where the reference relay's jar is; a seam so tests can point at a stranger. */
  @FunctionalInterface
  interface RelayJarSource {
    Path locate() throws RigException;
  }

  private final RelayJarSource relayJar;

  LaunchPlanner(RelayJarSource relayJar) {
    this.relayJar = relayJar;
  }

  /**
   * The plan for {@code o} under {@code rigId}.
   *
   * @throws RigException BAD_INPUT naming every URL that is not loopback, or a command without the
   *     rig id
   */
  LaunchPlan plan(UpOptions o, String rigId) throws RigException {
    return plan(o, rigId, List.of());
  }

  /**
   * The plan for {@code o} under {@code rigId}, its upstream placeholders carrying {@code routes}'
   * addresses.
   *
   * @throws RigException BAD_INPUT as {@link #plan(UpOptions, String)}
   */
  LaunchPlan plan(UpOptions o, String rigId, List<UpstreamRoute> routes) throws RigException {
    RelayProfile p = o.profile();
    Path stateDir = o.stateDir().toAbsolutePath();
    Path dataDir = stateDir.resolve(StateDirectory.DATA_DIR);
    Map<String, Integer> ports = o.effectivePorts();
    Map<String, String> vars = placeholders(o, rigId, ports, stateDir, dataDir);
    UpstreamPlans.placeholders(routes, vars);
    try {
      String health = expandOrNull(p.healthUrl(), vars);
      String metrics = expandOrNull(p.metricsUrl(), vars);
      List<Target> targets = targets(p, vars);
      requireLoopback(p, health, metrics, targets, delayControls(p, vars, metrics));
      List<String> command = new ArrayList<>();
      Map<String, String> env = new LinkedHashMap<>();
      selections(o, vars, command, env);
      // Set last, so no profile can override the proof down checks before it signals.
      env.put(ProcessInspector.RIG_ID_VARIABLE, rigId);
      if (!o.skipRelay()) {
        requireRigId(p, command, rigId);
      }
      return new LaunchPlan(
          rigId,
          stateDir,
          dataDir,
          stateDir.resolve(StateDirectory.LOG_FILE),
          ports,
          vars,
          command,
          env,
          health,
          metrics,
          targets,
          limiter(p),
          probe(p.readiness(), health, targets, ports),
          routes,
          p.sourceDir() == null ? null : resolve(p, p.sourceDir()),
          p.binaryPath() == null ? null : resolve(p, Templates.expand(p.binaryPath(), vars)),
          workingDirectory(p, vars, stateDir, o.skipRelay()));
    } catch (IllegalArgumentException e) {
      throw new RigException(RigException.Kind.BAD_INPUT, p.origin() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Where the relay starts: the profile's working_directory (placeholders expanded, relative to the
   * profile's directory), which must exist unless nothing is launched; else the state directory.
   */
  private static Path workingDirectory(
      RelayProfile p, Map<String, String> vars, Path stateDir, boolean skipRelay)
      throws RigException {
    if (p.workingDirectory() == null) {
      return stateDir;
    }
    Path dir = resolve(p, Templates.expand(p.workingDirectory(), vars)).toAbsolutePath();
    if (!skipRelay && !java.nio.file.Files.isDirectory(dir)) {
      throw new RigException(
          RigException.Kind.BAD_INPUT,
          p.origin()
              + ": $.working_directory: "
              + dir
              + " is not a directory (expanded from \""
              + p.workingDirectory()
              + "\")");
    }
    return dir;
  }

  private Map<String, String> placeholders(
      UpOptions o, String rigId, Map<String, Integer> ports, Path stateDir, Path dataDir)
      throws RigException {
    RelayProfile p = o.profile();
    Map<String, String> vars = new TreeMap<>();
    ports.forEach((k, v) -> vars.put(k, Integer.toString(v)));
    p.parameters().forEach((k, v) -> vars.put(k, o.overrides().getOrDefault(k, v)));
    vars.put("rig_id", rigId);
    vars.put(
        "profile_dir",
        (p.baseDir() == null ? Path.of("") : p.baseDir()).toAbsolutePath().toString());
    vars.put("data_dir", dataDir.toString());
    vars.put("state_dir", stateDir.toString());
    vars.put("java", JavaExecutable.path());
    if (mentions(p, "${reference_relay_jar}")) {
      vars.put("reference_relay_jar", relayJar.locate().toString());
    }
    if (o.effectiveQueueCapacity() != null) {
      vars.put("queue_capacity", Integer.toString(o.effectiveQueueCapacity()));
    }
    return vars;
  }

  /** This JVM's java, so a Java relay runs on the version the rig itself was tested on. */
  private static boolean mentions(RelayProfile p, String placeholder) {
    return p.command().stream().anyMatch(a -> a.contains(placeholder))
        || (p.binaryPath() != null && p.binaryPath().contains(placeholder));
  }

  private static List<Target> targets(RelayProfile p, Map<String, String> vars) {
    List<Target> out = new ArrayList<>();
    for (TargetTemplate t : p.targets()) {
      out.add(
          new Target(
              t.community(),
              Templates.expand(t.url(), vars),
              expandOrNull(t.hostHeader(), vars),
              t.tags(),
              t.kind(),
              t.contentBytes()));
    }
    return out;
  }

  /**
   * Command and environment: the profile's, then the arm's, each limiter setting's, the reset's.
   */
  private static void selections(
      UpOptions o, Map<String, String> vars, List<String> command, Map<String, String> env) {
    RelayProfile p = o.profile();
    command.addAll(Templates.expandAll(p.command(), vars));
    env.putAll(expandEnv(p.environment(), vars));
    add(p.arms().get(o.arm()), vars, command, env);
    for (LimiterSetting l : p.limiter()) {
      Map<String, String> lv = new TreeMap<>(vars);
      lv.put("value", l.value());
      add(new Selection(l.args(), l.env()), lv, command, env);
    }
    if (o.reset()) {
      add(p.reset(), vars, command, env);
    }
    command.addAll(o.extraArgs());
  }

  private static void add(
      Selection s, Map<String, String> vars, List<String> command, Map<String, String> env) {
    command.addAll(Templates.expandAll(s.args(), vars));
    env.putAll(expandEnv(s.env(), vars));
  }

  private static Map<String, String> limiter(RelayProfile p) {
    Map<String, String> out = new TreeMap<>();
    for (LimiterSetting l : p.limiter()) {
      out.put(l.name(), l.value());
    }
    return out;
  }

  /** The pid file's command line must be unique to this rig, so the rig id is an argument. */
  private static void requireRigId(RelayProfile p, List<String> command, String rigId)
      throws RigException {
    if (command.stream().noneMatch(a -> a.contains(rigId))) {
      throw new RigException(
          RigException.Kind.BAD_INPUT,
          p.origin()
              + ": the command must carry ${rig_id} as an argument so the pid file's command line"
              + " is unique to this rig, got "
              + p.command());
    }
  }

  /** Every URL the rig or generator will use; all offenders are named at once. */
  private static void requireLoopback(
      RelayProfile p,
      String health,
      String metrics,
      List<Target> targets,
      List<DelayControl> delayControls)
      throws RigException {
    List<String> problems = new ArrayList<>();
    loopback(problems, "health_url", health);
    loopback(problems, "metrics_url", metrics);
    for (Target t : targets) {
      loopback(problems, "targets url", t.url());
    }
    for (DelayControl c : delayControls) {
      loopback(problems, "delay_controls url", c.url().toString());
    }
    refuseIfAny(p, problems);
  }

  /** BAD_INPUT naming the profile and every problem, when there is any. */
  static void refuseIfAny(RelayProfile p, List<String> problems) throws RigException {
    if (!problems.isEmpty()) {
      throw new RigException(
          RigException.Kind.BAD_INPUT,
          p.origin() + ": " + String.join("; ", problems),
          problems,
          null);
    }
  }

  private static void loopback(List<String> problems, String field, String url) {
    Loopback.problem(field, url).ifPresent(problems::add);
  }

  /**
   * The profile's delay controls with {@code vars} expanded, in declaration order; {@code metrics}
   * is the expanded metrics URL (a profile with controls has one).
   *
   * @throws IllegalArgumentException when a URL does not parse
   */
  static List<DelayControl> delayControls(
      RelayProfile p, Map<String, String> vars, String metrics) {
    return p.delayControls().stream()
        .map(
            c ->
                new DelayControl(
                    c.name(),
                    URI.create(Templates.expand(c.url(), vars)),
                    c.turnsMetric(),
                    c.latenessMetric(),
                    URI.create(metrics)))
        .toList();
  }

  /** The profile's kind of readiness with its address: the health URL, first target, or port. */
  static Probe probe(
      Readiness readiness, String healthUrl, List<Target> targets, Map<String, Integer> ports) {
    if (readiness instanceof Readiness.WebSocketHandshake) {
      return new Probe.WebSocketHandshake(URI.create(targets.get(0).url()));
    }
    if (readiness instanceof Readiness.TcpAccept tcp) {
      return Probe.TcpAccept.loopback(ports.get(tcp.port()));
    }
    return new Probe.HttpHealth(URI.create(healthUrl));
  }

  private static String expandOrNull(String template, Map<String, String> vars) {
    return template == null ? null : Templates.expand(template, vars);
  }

  private static Map<String, String> expandEnv(Map<String, String> env, Map<String, String> vars) {
    Map<String, String> out = new TreeMap<>();
    env.forEach((k, v) -> out.put(k, Templates.expand(v, vars)));
    return out;
  }

  private static Path resolve(RelayProfile p, String path) {
    Path x = Path.of(path);
    return x.isAbsolute() || p.baseDir() == null ? x.toAbsolutePath() : p.baseDir().resolve(x);
  }
}
