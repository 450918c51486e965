package dev.ceiling.rig;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.core.model.Target;
import dev.ceiling.core.net.Loopback;
import dev.ceiling.core.os.JavaExecutable;
import dev.ceiling.rig.RelayProfile.LimiterSetting;
import dev.ceiling.rig.RelayProfile.Selection;
import dev.ceiling.rig.RelayProfile.TargetTemplate;
import dev.ceiling.rig.internal.Digests;
import dev.ceiling.rig.internal.LogTail;
import dev.ceiling.rig.internal.OwnerOnlyFiles;
import dev.ceiling.rig.internal.Ownership;
import dev.ceiling.rig.internal.PidFile;
import dev.ceiling.rig.internal.PortGuard;
import dev.ceiling.rig.internal.ProcessInspector;
import dev.ceiling.rig.internal.ProcessInspector.Identity;
import dev.ceiling.rig.internal.Provenance;
import dev.ceiling.rig.internal.Readiness;
import dev.ceiling.rig.internal.Secrets;
import dev.ceiling.rig.internal.StateDirectory;
import dev.ceiling.rig.internal.Templates;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The lifecycle with its checks injected, so tests can run deliberately broken (mutant) checks
 * through the same code and show that the real ones are what keeps strangers and busy ports safe.
 */
final class Lifecycle {
  static final String DESCRIPTOR_FILE = "descriptor.json";
  static final String LOG_FILE = "relay.log";
  static final String DATA_DIR = "data";
  private static final Duration POLL = Duration.ofMillis(50);
  private static final Duration EXEC_WAIT = Duration.ofSeconds(5);
  private static final Duration KILL_WAIT = Duration.ofSeconds(5);
  private static final int LOG_TAIL_LINES = 20;

  /** Which ports are still busy after waiting; the real one binds each port. */
  @FunctionalInterface
  interface PortCheck {
    List<Map.Entry<String, Integer>> busyAfter(Map<String, Integer> ports, Duration wait)
        throws InterruptedException;
  }

  private final Ownership ownership;
  private final PortCheck portCheck;
  private final RelayJarSource relayJar;

  /** Where the reference relay's jar is; a seam so tests can point at a stranger. */
  @FunctionalInterface
  interface RelayJarSource {
    Path locate() throws RigException;
  }

  Lifecycle(Ownership ownership, PortCheck portCheck, RelayJarSource relayJar) {
    this.ownership = ownership;
    this.portCheck = portCheck;
    this.relayJar = relayJar;
  }

  static Lifecycle standard() {
    return new Lifecycle(
        Ownership.STRICT,
        (ports, wait) -> PortGuard.awaitFree(ports, wait, Duration.ofMillis(100)),
        ReferenceRelayJar::locate);
  }

  // ---------------------------------------------------------------- up

  RigHandle up(UpOptions o) throws RigException {
    RelayProfile p = o.profile();
    Path stateDir = o.stateDir().toAbsolutePath();
    List<String> notes = new ArrayList<>();
    Optional<String> foreign;
    try {
      foreign = StateDirectory.claim(stateDir);
    } catch (IOException e) {
      throw new RigException(
          RigException.Kind.STATE, "cannot create state directory " + stateDir + ": " + e, e);
    }
    if (foreign.isPresent()) {
      throw new RigException(RigException.Kind.STATE, foreign.get());
    }
    refuseIfRunning(stateDir, notes);

    String rigId = "ceiling-rig-" + UUID.randomUUID();
    Map<String, Integer> ports = o.effectivePorts();
    Path dataDir = stateDir.resolve(DATA_DIR);
    Path log = stateDir.resolve(LOG_FILE);
    Map<String, String> vars = variables(o, rigId, ports, stateDir, dataDir);

    String healthUrl;
    String metricsUrl;
    List<Target> targets = new ArrayList<>();
    Map<String, String> limiter = new TreeMap<>();
    try {
      healthUrl = p.healthUrl() == null ? null : Templates.expand(p.healthUrl(), vars);
      metricsUrl = p.metricsUrl() == null ? null : Templates.expand(p.metricsUrl(), vars);
      for (TargetTemplate t : p.targets()) {
        targets.add(
            new Target(
                t.community(),
                Templates.expand(t.url(), vars),
                t.hostHeader() == null ? null : Templates.expand(t.hostHeader(), vars),
                t.tags(),
                t.kind(),
                t.contentBytes()));
      }
      for (LimiterSetting l : p.limiter()) {
        limiter.put(l.name(), l.value());
      }
    } catch (IllegalArgumentException e) {
      throw new RigException(RigException.Kind.BAD_INPUT, p.origin() + ": " + e.getMessage(), e);
    }
    if (healthUrl != null) {
      requireLoopback("health_url", healthUrl, p);
    }
    if (metricsUrl != null) {
      requireLoopback("metrics_url", metricsUrl, p);
    }
    for (Target t : targets) {
      requireLoopback("targets url", t.url(), p);
    }
    String probe = probe(p.readiness(), healthUrl, targets, ports);

    Provenance.SourceState source = null;
    if (p.sourceDir() != null) {
      Path dir = resolve(p, p.sourceDir());
      try {
        source = Provenance.source(dir);
      } catch (IOException e) {
        throw new RigException(
            RigException.Kind.BAD_INPUT,
            p.origin() + ": source_dir " + dir + " has no readable git state: " + e.getMessage(),
            e);
      }
    }
    String binaryDigest = null;
    if (p.binaryPath() != null) {
      Path bin = resolve(p, Templates.expand(p.binaryPath(), vars));
      try {
        binaryDigest = Digests.sha256(bin);
      } catch (IOException e) {
        throw new RigException(
            RigException.Kind.BAD_INPUT,
            p.origin() + ": binary_path " + bin + " cannot be digested: " + e,
            e);
      }
    }

    Long pid = null;
    Instant start = null;
    List<String> command = null;
    Map<String, String> relayInfo = new TreeMap<>();
    // Secret values stay in this process: what is written or printed holds their digest, which
    // still pins them in the experiment's identity.
    Map<String, String> secrets = p.secretValues(o.overrides());
    for (Map.Entry<String, String> e : p.parameters().entrySet()) {
      String value = o.overrides().getOrDefault(e.getKey(), e.getValue());
      relayInfo.put(
          "parameter." + e.getKey(),
          p.isSecret(e.getKey()) ? Secrets.redacted(e.getKey(), value) : value);
    }
    ports.forEach((k, v) -> relayInfo.put("port." + k, Integer.toString(v)));
    if (o.skipRelay()) {
      if (!Readiness.await(probe, o.readyTimeout(), null)) {
        throw new RigException(
            RigException.Kind.ATTACH_FAILED,
            "--skip-relay needs a relay that is already up: expected "
                + Readiness.describe(probe)
                + " within "
                + o.readyTimeout()
                + ", but it did not");
      }
      deleteQuietly(PidFile.in(stateDir));
    } else {
      Launched l;
      try {
        l = launch(o, vars, rigId, ports, stateDir, dataDir, log, probe);
      } catch (RigException e) {
        // Launch messages quote the command line and the log, which may carry a secret.
        throw new RigException(e.kind(), Secrets.scrub(e.getMessage(), secrets), e.problems(), e);
      }
      pid = l.identity.pid();
      start = l.identity.startInstant();
      command = Secrets.scrub(l.identity.command(), secrets);
      if (p.readyLinePrefix() != null) {
        Optional<Map<String, String>> ready = readyLine(log, p.readyLinePrefix());
        if (ready.isPresent()) {
          ready.get().forEach((k, v) -> relayInfo.put(k, Secrets.scrub(v, secrets)));
        } else {
          notes.add(
              "no log line starting with '"
                  + p.readyLinePrefix()
                  + "' in "
                  + log
                  + "; relay_info lacks the relay's own report");
        }
      }
    }

    RigDescriptor d =
        new RigDescriptor(
            SchemaVersion.CURRENT,
            rigId,
            p.name(),
            o.arm(),
            pid,
            start,
            command,
            o.skipRelay() ? null : log.toString(),
            healthUrl,
            metricsUrl,
            p.contaminationEvidence(),
            targets,
            limiter,
            o.effectiveQueueCapacity(),
            o.reset(),
            new TreeMap<>(p.metricMapping()),
            p.positiveControlled(),
            relayInfo,
            source == null ? null : source.revision(),
            source == null ? null : source.diffDigest(),
            binaryDigest,
            Provenance.ceilingVersion(),
            Provenance.codeSourceDigest(Target.class));
    Path descriptorFile = stateDir.resolve(DESCRIPTOR_FILE);
    try {
      OwnerOnlyFiles.write(descriptorFile, Json.write(d));
    } catch (IOException e) {
      if (pid != null) {
        down(stateDir, o.stopTimeout());
      }
      throw new RigException(
          RigException.Kind.STATE, "cannot write descriptor " + descriptorFile + ": " + e, e);
    }
    return new RigHandle(this, d, stateDir, descriptorFile, o.stopTimeout(), notes);
  }

  private record Launched(Identity identity) {}

  private Launched launch(
      UpOptions o,
      Map<String, String> vars,
      String rigId,
      Map<String, Integer> ports,
      Path stateDir,
      Path dataDir,
      Path log,
      String probe)
      throws RigException {
    RelayProfile p = o.profile();
    List<String> command = new ArrayList<>();
    Map<String, String> env = new LinkedHashMap<>();
    try {
      command.addAll(Templates.expandAll(p.command(), vars));
      env.putAll(expandEnv(p.environment(), vars));
      Selection arm = p.arms().get(o.arm());
      command.addAll(Templates.expandAll(arm.args(), vars));
      env.putAll(expandEnv(arm.env(), vars));
      for (LimiterSetting l : p.limiter()) {
        Map<String, String> lv = new TreeMap<>(vars);
        lv.put("value", l.value());
        command.addAll(Templates.expandAll(l.args(), lv));
        env.putAll(expandEnv(l.env(), lv));
      }
      if (o.reset()) {
        command.addAll(Templates.expandAll(p.reset().args(), vars));
        env.putAll(expandEnv(p.reset().env(), vars));
      }
    } catch (IllegalArgumentException e) {
      throw new RigException(RigException.Kind.BAD_INPUT, p.origin() + ": " + e.getMessage(), e);
    }
    command.addAll(o.extraArgs());
    if (!command.contains(rigId) && command.stream().noneMatch(a -> a.contains(rigId))) {
      throw new RigException(
          RigException.Kind.BAD_INPUT,
          p.origin()
              + ": the command must carry ${rig_id} as an argument so the pid file's command line"
              + " is unique to this rig, got "
              + p.command());
    }

    List<Map.Entry<String, Integer>> busy;
    try {
      busy = portCheck.busyAfter(ports, o.portWait());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RigException(RigException.Kind.START_FAILED, "interrupted waiting for ports", e);
    }
    if (!busy.isEmpty()) {
      StringBuilder sb = new StringBuilder("refusing to start " + p.name() + ": ");
      List<String> problems = new ArrayList<>();
      for (Map.Entry<String, Integer> b : busy) {
        String one =
            "port "
                + b.getKey()
                + "="
                + b.getValue()
                + " is in use on 127.0.0.1 after waiting "
                + o.portWait()
                + " (listener: "
                + PortGuard.describeListener(b.getValue())
                + ")";
        problems.add(one);
      }
      sb.append(String.join("; ", problems));
      throw new RigException(RigException.Kind.PORT_IN_USE, sb.toString(), problems, null);
    }

    try {
      if (o.reset()) {
        deleteTree(dataDir);
      }
      OwnerOnlyFiles.directory(dataDir);
      // The previous run's log is kept one generation back: it may explain why that run failed.
      if (Files.exists(log)) {
        Files.move(log, stateDir.resolve(LOG_FILE + ".1"), StandardCopyOption.REPLACE_EXISTING);
      }
      OwnerOnlyFiles.emptyFile(log);
    } catch (IOException e) {
      throw new RigException(RigException.Kind.STATE, "cannot prepare " + stateDir + ": " + e, e);
    }

    List<String> launch = new ArrayList<>();
    Optional<Path> setsid = setsid();
    // setsid gives the relay its own session and process group, so a terminal's SIGINT/SIGHUP to
    // the CLI does not reach it. A ProcessBuilder child is never a group leader, so setsid(1)
    // calls setsid() and execs in place: the pid we get is the relay's (verified below).
    setsid.ifPresent(s -> launch.add(s.toString()));
    launch.addAll(command);
    ProcessBuilder pb =
        new ProcessBuilder(launch)
            .directory(stateDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().putAll(env);
    Process process;
    try {
      process = pb.start();
    } catch (IOException e) {
      throw new RigException(
          RigException.Kind.START_FAILED, "cannot launch " + launch + ": " + e.getMessage(), e);
    }
    Identity id = awaitExec(process, command, log);
    PidFile pf =
        new PidFile(
            1,
            rigId,
            p.name(),
            id.pid(),
            id.startInstant(),
            id.command(),
            ports,
            probe,
            log.toString());
    try {
      pf.write(PidFile.in(stateDir));
    } catch (IOException e) {
      process.destroyForcibly();
      throw new RigException(
          RigException.Kind.STATE, "cannot write pid file in " + stateDir + ": " + e, e);
    }

    boolean ready = Readiness.await(probe, o.readyTimeout(), process);
    // A relay that failed to bind can die while someone else's listener answers the probe: ready
    // only counts if our process is still alive after it.
    ready = ready && process.isAlive();
    if (!ready) {
      String what = Readiness.describe(probe);
      String state;
      if (process.isAlive()) {
        DownResult stopped = down(stateDir, o.stopTimeout());
        state = "it was still alive and has been stopped (" + stopped.outcome() + ")";
      } else {
        state = "it exited with code " + process.exitValue();
        down(stateDir, o.stopTimeout());
      }
      throw new RigException(
          RigException.Kind.START_FAILED,
          "relay "
              + p.name()
              + " (pid "
              + id.pid()
              + ") did not become ready: expected "
              + what
              + " within "
              + o.readyTimeout()
              + "; "
              + state
              + ". Last lines of "
              + log
              + ":\n"
              + LogTail.block(log, LOG_TAIL_LINES));
    }
    return new Launched(id);
  }

  /** Waits until the pid shows the relay's argv (setsid has exec'd), then reads its identity. */
  private static Identity awaitExec(Process process, List<String> command, Path log)
      throws RigException {
    long deadline = System.nanoTime() + EXEC_WAIT.toNanos();
    List<String> seen = null;
    while (System.nanoTime() - deadline < 0) {
      if (!process.isAlive()) {
        throw new RigException(
            RigException.Kind.START_FAILED,
            "relay exited during startup with code "
                + process.exitValue()
                + " (pid "
                + process.pid()
                + "). Last lines of "
                + log
                + ":\n"
                + LogTail.block(log, LOG_TAIL_LINES));
      }
      Optional<Identity> id = ProcessInspector.identify(process.pid());
      if (id.isPresent() && isExecd(command, id.get().command())) {
        if (id.get().startInstant() == null) {
          process.destroyForcibly();
          throw new RigException(
              RigException.Kind.START_FAILED,
              "the OS does not report pid "
                  + process.pid()
                  + "'s start instant, so the rig could not prove ownership later; stopped it");
        }
        return id.get();
      }
      seen = id.map(Identity::command).orElse(null);
      sleep(POLL);
    }
    process.destroyForcibly();
    throw new RigException(
        RigException.Kind.START_FAILED,
        "pid "
            + process.pid()
            + " never showed the relay's command line within "
            + EXEC_WAIT
            + " (setsid forked instead of exec'ing?): expected "
            + command
            + ", saw "
            + seen
            + "; killed it");
  }

  /**
   * True once the pid runs the relay's own arguments. argv[0] may differ from what was launched: a
   * version-manager shim (pyenv, sdkman) execs the real binary under its full path. The arguments
   * after it must match exactly, and whatever the OS then shows is what the pid file records, since
   * that is what {@code down} will compare against.
   */
  static boolean isExecd(List<String> launched, List<String> live) {
    return live != null
        && live.size() == launched.size()
        && live.subList(1, live.size()).equals(launched.subList(1, launched.size()));
  }

  private void refuseIfRunning(Path stateDir, List<String> notes) throws RigException {
    Path pf = PidFile.in(stateDir);
    if (!Files.exists(pf)) {
      return;
    }
    PidFile rec;
    try {
      rec = PidFile.read(pf);
    } catch (ReportFormatException e) {
      // Deleting it would forget a relay this rig may have started and that may still run (and
      // hold the port): down can find it through the descriptor, or refuses and keeps the files.
      throw new RigException(
          RigException.Kind.STATE,
          "the pid file in "
              + stateDir
              + " is unreadable ("
              + e.getMessage()
              + "), so a relay this rig started may still be running; run 'ceiling rig down"
              + " --state-dir "
              + stateDir
              + "' first (it finds the relay through the descriptor, or refuses and keeps every"
              + " file)");
    }
    Optional<Identity> live = ProcessInspector.identify(rec.pid());
    if (live.isPresent() && ownership.mismatch(rec, live.get()).isEmpty()) {
      throw new RigException(
          RigException.Kind.STATE,
          "a relay of this rig is already running in "
              + stateDir
              + " (pid "
              + rec.pid()
              + ", rig id "
              + rec.rigId()
              + "); run down first or use another state directory");
    }
    notes.add(
        "removed a stale pid file naming pid "
            + rec.pid()
            + (live.isPresent() ? " (now a process that is not ours)" : " (no longer running)"));
    deleteQuietly(pf);
  }

  // ---------------------------------------------------------------- down

  DownResult down(Path stateDir, Duration stopTimeout) {
    Path pf = PidFile.in(stateDir);
    Path descriptor = stateDir.resolve(DESCRIPTOR_FILE);
    if (!Files.exists(pf)) {
      Optional<RigDescriptor> d = readDescriptor(descriptor);
      if (d.isPresent() && !d.get().ownsRelay()) {
        deleteQuietly(descriptor);
        return new DownResult(
            DownResult.Outcome.ATTACHED,
            null,
            "attached to a relay this rig did not start ("
                + d.get().healthUrl()
                + "); nothing signalled, descriptor removed");
      }
      return new DownResult(
          DownResult.Outcome.NO_PID_FILE, null, "no pid file in " + stateDir + "; nothing to stop");
    }
    PidFile rec;
    try {
      rec = PidFile.read(pf);
    } catch (ReportFormatException e) {
      Optional<PidFile> found = fromDescriptor(readDescriptor(descriptor));
      if (found.isEmpty()) {
        // Nothing says which process was ours: whether a relay runs cannot be told, so nothing
        // is signalled and nothing is removed (the files are the only trace of it).
        return new DownResult(
            DownResult.Outcome.UNRESOLVED,
            null,
            "pid file unreadable ("
                + e.getMessage()
                + ") and no readable descriptor in "
                + stateDir
                + " names this rig's relay; signalled nothing and kept every file. Look for a"
                + " process whose command line carries 'ceiling-rig-' and this directory, stop it,"
                + " then remove "
                + pf);
      }
      return downGarbled(stateDir, pf, descriptor, found.get(), stopTimeout, e.getMessage());
    }
    // Take the handle once: the JDK binds it to the process's start time and refuses to signal a
    // different process that later reuses the pid, which closes the gap between check and signal.
    Optional<ProcessHandle> handle = ProcessHandle.of(rec.pid());
    Optional<Identity> live =
        handle.filter(ProcessHandle::isAlive).flatMap(h -> ProcessInspector.identify(rec.pid()));
    if (live.isEmpty()) {
      deleteQuietly(pf);
      deleteQuietly(descriptor);
      return new DownResult(
          DownResult.Outcome.STALE_DEAD,
          rec.pid(),
          "stale pid file: pid " + rec.pid() + " is not running; removed it, signalled nothing");
    }
    Optional<String> mismatch = ownership.mismatch(rec, live.get());
    if (mismatch.isPresent()) {
      deleteQuietly(pf);
      deleteQuietly(descriptor);
      return new DownResult(
          DownResult.Outcome.STALE_NOT_OURS,
          rec.pid(),
          "stale pid file: pid "
              + rec.pid()
              + " is not the relay this rig started ("
              + mismatch.get()
              + "); removed it, signalled nothing");
    }
    return stop(stateDir, handle.get(), rec, stopTimeout);
  }

  /** SIGTERM, then SIGKILL after the stop timeout; the files go only once the relay is gone. */
  private DownResult stop(Path stateDir, ProcessHandle h, PidFile rec, Duration stopTimeout) {
    Path pf = PidFile.in(stateDir);
    Path descriptor = stateDir.resolve(DESCRIPTOR_FILE);
    h.destroy();
    if (waitExit(h, stopTimeout)) {
      deleteQuietly(pf);
      deleteQuietly(descriptor);
      return new DownResult(
          DownResult.Outcome.STOPPED, rec.pid(), "stopped relay pid " + rec.pid() + " (SIGTERM)");
    }
    h.destroyForcibly();
    if (waitExit(h, KILL_WAIT)) {
      deleteQuietly(pf);
      deleteQuietly(descriptor);
      return new DownResult(
          DownResult.Outcome.KILLED,
          rec.pid(),
          "relay pid "
              + rec.pid()
              + " ignored SIGTERM for "
              + stopTimeout
              + "; killed it (SIGKILL)");
    }
    return new DownResult(
        DownResult.Outcome.STILL_ALIVE,
        rec.pid(),
        "relay pid " + rec.pid() + " survived SIGKILL for " + KILL_WAIT + "; pid file kept");
  }

  /**
   * The pid file is unreadable but the descriptor names the relay: its pid, start instant and
   * command line (which carries the unique rig id). The live process must match all of them and
   * carry the rig id before it is stopped; a process elsewhere carrying the rig id means the record
   * is wrong, and then nothing is signalled and every file is kept.
   */
  private DownResult downGarbled(
      Path stateDir, Path pf, Path descriptor, PidFile rec, Duration stopTimeout, String why) {
    String prefix = "pid file unreadable (" + why + "); the descriptor names rig " + rec.rigId();
    Optional<ProcessHandle> handle = ProcessHandle.of(rec.pid());
    Optional<Identity> live =
        handle.filter(ProcessHandle::isAlive).flatMap(h -> ProcessInspector.identify(rec.pid()));
    Optional<String> mismatch =
        live.isEmpty()
            ? Optional.of("pid " + rec.pid() + " is not running")
            : ownership.mismatch(rec, live.get());
    if (mismatch.isEmpty() && live.get().command().contains(rec.rigId())) {
      DownResult r = stop(stateDir, handle.get(), rec, stopTimeout);
      return new DownResult(r.outcome(), r.pid(), prefix + ": " + r.message());
    }
    List<Long> carriers = carryingRigId(rec.rigId());
    if (!carriers.isEmpty()) {
      return new DownResult(
          DownResult.Outcome.UNRESOLVED,
          rec.pid(),
          prefix
              + " with pid "
              + rec.pid()
              + " ("
              + mismatch.orElse("its command line lacks the rig id")
              + "), but pid(s) "
              + carriers
              + " carry that rig id: signalled nothing and kept every file; stop them by hand");
    }
    deleteQuietly(pf);
    deleteQuietly(descriptor);
    return new DownResult(
        DownResult.Outcome.GARBLED,
        null,
        prefix
            + ", whose relay is not running ("
            + mismatch.orElse("its command line lacks the rig id")
            + ") and no process carries that rig id; removed the files, signalled nothing");
  }

  /** What the pid file would have said, rebuilt from a descriptor of a relay this rig started. */
  private static Optional<PidFile> fromDescriptor(Optional<RigDescriptor> d) {
    if (d.isEmpty() || !d.get().ownsRelay() || d.get().relayCommand() == null) {
      return Optional.empty();
    }
    RigDescriptor x = d.get();
    try {
      return Optional.of(
          new PidFile(
              1,
              x.rigId(),
              x.profile(),
              x.relayPid(),
              x.relayStartInstant(),
              x.relayCommand(),
              Map.of(),
              x.healthUrl() == null ? "unknown" : x.healthUrl(),
              x.relayLog() == null ? "unknown" : x.relayLog()));
    } catch (IllegalArgumentException | NullPointerException e) {
      return Optional.empty();
    }
  }

  /** Live processes whose command line carries the rig id, this JVM excluded. */
  private static List<Long> carryingRigId(String rigId) {
    long self = ProcessHandle.current().pid();
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .map(ProcessHandle::pid)
        .filter(pid -> pid != self)
        .filter(
            pid ->
                ProcessInspector.commandLine(pid)
                    .map(c -> c.stream().anyMatch(a -> a.contains(rigId)))
                    .orElse(false))
        .toList();
  }

  // ---------------------------------------------------------------- status

  StatusResult status(Path stateDir) {
    Path pf = PidFile.in(stateDir);
    if (!Files.exists(pf)) {
      Optional<RigDescriptor> d = readDescriptor(stateDir.resolve(DESCRIPTOR_FILE));
      if (d.isPresent() && !d.get().ownsRelay()) {
        boolean ok =
            healthy(
                d.get().healthUrl() != null ? d.get().healthUrl() : d.get().targets().get(0).url());
        return new StatusResult(
            StatusResult.State.ATTACHED,
            null,
            Map.of(),
            d.get().healthUrl(),
            ok,
            "attached to a relay this rig did not start; health " + (ok ? "200" : "not answering"));
      }
      return new StatusResult(
          StatusResult.State.NONE, null, Map.of(), null, null, "no relay recorded in " + stateDir);
    }
    PidFile rec;
    try {
      rec = PidFile.read(pf);
    } catch (ReportFormatException e) {
      return new StatusResult(
          StatusResult.State.GARBLED,
          null,
          Map.of(),
          null,
          null,
          "pid file unreadable: " + e.getMessage());
    }
    Optional<Identity> live = ProcessInspector.identify(rec.pid());
    Optional<String> mismatch =
        live.isEmpty()
            ? Optional.of("pid " + rec.pid() + " is not running")
            : ownership.mismatch(rec, live.get());
    if (mismatch.isPresent()) {
      return new StatusResult(
          StatusResult.State.STALE,
          rec.pid(),
          rec.ports(),
          rec.healthUrl(),
          null,
          "stale pid file: " + mismatch.get());
    }
    boolean ok = healthy(rec.healthUrl());
    return new StatusResult(
        StatusResult.State.RUNNING_OURS,
        rec.pid(),
        rec.ports(),
        rec.healthUrl(),
        ok,
        "relay pid "
            + rec.pid()
            + " is ours (rig id "
            + rec.rigId()
            + "), ports "
            + rec.ports()
            + ", health "
            + (ok ? "200" : "not answering"));
  }

  // ---------------------------------------------------------------- helpers

  private Map<String, String> variables(
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

  private static boolean mentions(RelayProfile p, String placeholder) {
    return p.command().stream().anyMatch(a -> a.contains(placeholder))
        || (p.binaryPath() != null && p.binaryPath().contains(placeholder));
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

  private static void requireLoopback(String field, String url, RelayProfile p)
      throws RigException {
    Optional<String> problem = Loopback.problem(field, url);
    if (problem.isPresent()) {
      throw new RigException(RigException.Kind.BAD_INPUT, p.origin() + ": " + problem.get());
    }
  }

  private static Optional<Path> setsid() {
    for (String c : List.of("/usr/bin/setsid", "/bin/setsid")) {
      Path p = Path.of(c);
      if (Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** True when the probe (a health, WebSocket or tcp:// URL; see {@link Readiness}) answers. */
  static boolean healthy(String probe) {
    // A pid file or descriptor can be edited: never probe anything but loopback.
    return Loopback.isLoopbackUrl(probe) && Readiness.answers(probe);
  }

  /**
   * How readiness is asked: GET the health URL, a WebSocket handshake on the first target's URL
   * (for a relay without a health endpoint), or a TCP connect on a named port.
   */
  static String probe(
      String readiness, String healthUrl, List<Target> targets, Map<String, Integer> ports) {
    if ("websocket".equals(readiness)) {
      return targets.get(0).url();
    }
    if (readiness.startsWith("tcp:")) {
      return Readiness.tcp(ports.get(readiness.substring(4)));
    }
    return healthUrl;
  }

  /** The READY line's key=value pairs; waits a moment because stdout may trail the health URL. */
  private static Optional<Map<String, String>> readyLine(Path log, String prefix) {
    long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    do {
      try {
        for (String line : Files.readAllLines(log)) {
          if (line.startsWith(prefix)) {
            Map<String, String> out = new TreeMap<>();
            for (String tok : line.substring(prefix.length()).trim().split("\\s+", -1)) {
              int eq = tok.indexOf('=');
              if (eq > 0) {
                out.put(tok.substring(0, eq), tok.substring(eq + 1));
              }
            }
            return Optional.of(out);
          }
        }
      } catch (IOException e) {
        // Unreadable as UTF-8 or gone: keep polling until the deadline.
      }
      sleep(POLL);
    } while (System.nanoTime() - deadline < 0);
    return Optional.empty();
  }

  private static boolean waitExit(ProcessHandle h, Duration timeout) {
    try {
      h.onExit().get(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return !h.isAlive();
    } catch (java.util.concurrent.ExecutionException e) {
      return !h.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !h.isAlive();
    }
  }

  private static Optional<RigDescriptor> readDescriptor(Path file) {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Json.read(file, RigDescriptor.class));
    } catch (ReportFormatException e) {
      return Optional.empty();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // Best effort: a leftover file is reported as stale on the next run.
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
