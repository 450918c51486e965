package dev.ceiling.rig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What {@link Rig#up(UpOptions)} should bring up.
 *
 * @param profile the relay profile
 * @param arm the arm to run; must be one of the profile's arms
 * @param reset give the relay a fresh database (wipes {@code <stateDir>/data} and applies the
 *     profile's reset selection); not allowed with skipRelay, whose database the rig does not own
 * @param skipRelay attach to a relay someone else supervises: its health URL must answer; no
 *     process is started and none will ever be signalled
 * @param stateDir where the pid file, descriptor, log and data directory live; one relay per state
 *     directory
 * @param readyTimeout how long the relay may take to become ready (or, attached, to answer), > 0
 * @param portWait how long to wait for busy ports to be released before refusing, >= 0 (15 s by
 *     default)
 * @param stopTimeout how long a stop waits after SIGTERM before SIGKILL, >= 0
 * @param overrides values for the profile's ports and parameters by name (e.g. {@code port=47200},
 *     {@code exchange_delay_ms=2}); an unknown name is an error
 * @param extraArgs appended to the relay's command line after everything else
 * @param upstreamMode how the relay reaches the profile's upstreams: through a {@link
 *     dev.ceiling.rig.proxy.DelayProxy} each that lives as long as the {@link RigHandle} ({@link
 *     UpstreamMode#PROXIED}, the default), or straight to each target ({@link UpstreamMode#DIRECT},
 *     for a relay that must outlive this process, as after {@code ceiling rig up}); ignored with
 *     skipRelay, which launches nothing
 * @param allowRemoteUpstreams false (the default) refuses an upstream target whose host is not
 *     loopback ({@link dev.ceiling.core.net.Loopback})
 */
public record UpOptions(
    RelayProfile profile,
    String arm,
    boolean reset,
    boolean skipRelay,
    Path stateDir,
    Duration readyTimeout,
    Duration portWait,
    Duration stopTimeout,
    Map<String, String> overrides,
    List<String> extraArgs,
    UpstreamMode upstreamMode,
    boolean allowRemoteUpstreams) {

  /** How the relay reaches the upstreams its profile declares. */
  public enum UpstreamMode {
    /** Through a delay proxy per upstream, owned by the {@link RigHandle}. */
    PROXIED,
    /** Straight to each target; no proxy, no wire count, no added delay. */
    DIRECT
  }

  /**
   * The override that sets the audit queue's capacity (profiles with a queue only); the descriptor
   * records the effective value, so two halves with different capacities cannot be combined.
   */
  public static final String QUEUE_CAPACITY = "queue_capacity";

  public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_PORT_WAIT = Duration.ofSeconds(15);
  public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(10);

  public UpOptions {
    Objects.requireNonNull(profile, "profile must not be null");
    Objects.requireNonNull(arm, "arm must not be null");
    if (!profile.arms().containsKey(arm)) {
      throw new IllegalArgumentException(
          "arm must be one of "
              + new java.util.TreeSet<>(profile.arms().keySet())
              + ", got "
              + arm);
    }
    if (reset && skipRelay) {
      throw new IllegalArgumentException(
          "reset must be false with skip_relay: the rig cannot reset a database it does not own");
    }
    Objects.requireNonNull(stateDir, "state_dir must not be null");
    positive("ready_timeout", readyTimeout);
    nonNegative("port_wait", portWait);
    nonNegative("stop_timeout", stopTimeout);
    overrides = Map.copyOf(Objects.requireNonNull(overrides, "overrides must not be null"));
    for (String k : overrides.keySet()) {
      if (QUEUE_CAPACITY.equals(k) && profile.queueCapacity() != null) {
        String v = overrides.get(k);
        if (!v.matches("[1-9][0-9]{0,8}")) {
          throw new IllegalArgumentException(
              "override queue_capacity must be an integer >= 1, got " + v);
        }
        continue;
      }
      if (!profile.ports().containsKey(k) && !profile.parameters().containsKey(k)) {
        throw new IllegalArgumentException(
            "overrides may only name the profile's ports "
                + new java.util.TreeSet<>(profile.ports().keySet())
                + " or parameters "
                + new java.util.TreeSet<>(profile.parameters().keySet())
                + ", got "
                + k);
      }
    }
    for (Map.Entry<String, Integer> p : profile.ports().entrySet()) {
      String v = overrides.get(p.getKey());
      if (v != null) {
        int port;
        try {
          port = Integer.parseInt(v);
        } catch (NumberFormatException e) {
          port = -1;
        }
        if (port < 1 || port > 65535) {
          throw new IllegalArgumentException(
              "override " + p.getKey() + " must be a port in [1, 65535], got " + v);
        }
      }
    }
    extraArgs = List.copyOf(Objects.requireNonNull(extraArgs, "extra_args must not be null"));
    Objects.requireNonNull(upstreamMode, "upstream_mode must not be null");
  }

  /** Defaults: ready timeout 60 s, port wait 15 s, stop timeout 10 s, no overrides. */
  public static UpOptions of(RelayProfile profile, String arm, Path stateDir) {
    return new UpOptions(
        profile,
        arm,
        false,
        false,
        stateDir,
        DEFAULT_READY_TIMEOUT,
        DEFAULT_PORT_WAIT,
        DEFAULT_STOP_TIMEOUT,
        Map.of(),
        List.of(),
        UpstreamMode.PROXIED,
        false);
  }

  public UpOptions withReset(boolean value) {
    return with(f -> f.reset = value);
  }

  public UpOptions withSkipRelay(boolean value) {
    return with(f -> f.skipRelay = value);
  }

  public UpOptions withTimeouts(Duration ready, Duration ports, Duration stop) {
    return with(
        f -> {
          f.readyTimeout = ready;
          f.portWait = ports;
          f.stopTimeout = stop;
        });
  }

  public UpOptions withOverrides(Map<String, String> value) {
    return with(f -> f.overrides = value);
  }

  public UpOptions withExtraArgs(List<String> value) {
    return with(f -> f.extraArgs = value);
  }

  /** Proxied (the default) or direct upstream links; see {@link UpstreamMode}. */
  public UpOptions withUpstreamMode(UpstreamMode value) {
    return with(f -> f.upstreamMode = value);
  }

  /** Whether an upstream target may be off this machine (default false). */
  public UpOptions withAllowRemoteUpstreams(boolean value) {
    return with(f -> f.allowRemoteUpstreams = value);
  }

  /** A copy of these options with some fields changed: what every wither returns. */
  private UpOptions with(Consumer<Fields> change) {
    Fields f = new Fields(this);
    change.accept(f);
    return new UpOptions(
        profile,
        arm,
        f.reset,
        f.skipRelay,
        stateDir,
        f.readyTimeout,
        f.portWait,
        f.stopTimeout,
        f.overrides,
        f.extraArgs,
        f.upstreamMode,
        f.allowRemoteUpstreams);
  }

  /** The components a wither may change; the record's constructor still checks them all. */
  private static final class Fields {
    boolean reset;
    boolean skipRelay;
    Duration readyTimeout;
    Duration portWait;
    Duration stopTimeout;
    Map<String, String> overrides;
    List<String> extraArgs;
    UpstreamMode upstreamMode;
    boolean allowRemoteUpstreams;

    Fields(UpOptions o) {
      reset = o.reset;
      skipRelay = o.skipRelay;
      readyTimeout = o.readyTimeout;
      portWait = o.portWait;
      stopTimeout = o.stopTimeout;
      overrides = o.overrides;
      extraArgs = o.extraArgs;
      upstreamMode = o.upstreamMode;
      allowRemoteUpstreams = o.allowRemoteUpstreams;
    }
  }

  /** The queue capacity the relay runs with: the override if given, else the profile's. */
  public Integer effectiveQueueCapacity() {
    String v = overrides.get(QUEUE_CAPACITY);
    return v != null ? Integer.valueOf(v) : profile.queueCapacity();
  }

  /** The ports after overrides. */
  public Map<String, Integer> effectivePorts() {
    Map<String, Integer> out = new java.util.TreeMap<>(profile.ports());
    for (Map.Entry<String, String> e : overrides.entrySet()) {
      if (out.containsKey(e.getKey())) {
        out.put(e.getKey(), Integer.parseInt(e.getValue()));
      }
    }
    return out;
  }

  private static void positive(String field, Duration d) {
    Objects.requireNonNull(d, field + " must not be null");
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(field + " must be > 0, got " + d);
    }
  }

  private static void nonNegative(String field, Duration d) {
    Objects.requireNonNull(d, field + " must not be null");
    if (d.isNegative()) {
      throw new IllegalArgumentException(field + " must be >= 0, got " + d);
    }
  }
}
