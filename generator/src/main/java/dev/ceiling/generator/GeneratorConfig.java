package dev.ceiling.generator;

import dev.ceiling.generator.internal.PlanSize;
import dev.ceiling.generator.internal.SelfCheck;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One generator run: targets, one schedule length shared by all of them, and the limits that keep a
 * misbehaving relay from stalling the run. Immutable and validated: the constructor reports every
 * problem at once ({@link InvalidConfigException}; {@link Builder#problems()} lists them).
 *
 * @param loads the targets, at least one; all share one clock start
 * @param duration the schedule's length, > 0 and at most {@link #MAX_DURATION}
 * @param segment which share of the schedule this process sends ({@link Segment#WHOLE} for all)
 * @param inflightCapPerConnection events sent but not yet answered on one connection before the
 *     next slot of that connection waits (and goes out late, lateness recorded), >= 1
 * @param gracePeriod the grace period after the last send: the longest wait for outstanding OKs
 *     once sending has ended; events still unanswered then count as unacknowledged; > 0
 * @param connectTimeout the longest wait for all connections (and the clock does not start until
 *     they are all up), > 0
 * @param allowRemote false refuses any target whose URL host is not loopback
 * @param maxFrameBytes the largest text message accepted from a relay, 1 KiB to 64 MiB; a larger
 *     one is a transport error of class {@code frame_too_large} and closes that connection
 * @param senderThreads threads that put slots on the wire, 1 to 64; each owns a fixed subset of the
 *     connections
 * @param sendLagBound the configured send-lag p99 bound of the self-check (the bound applied is
 *     max(this, 2 x the machine's wake floor p99, 10% of the slot interval)), 1 µs to 10 s; default
 *     {@link #DEFAULT_SEND_LAG_BOUND}
 * @param warmup sent on the same schedule before the measured window and left out of every count
 *     and latency, 0 to 1 h; default 0
 * @param windowListener told when the measured window starts and ends (never null; {@link
 *     WindowListener#NONE})
 * @param startAt the wall-clock instant of slot 0 shared by every segment of one schedule (the
 *     processes of a scaled-out cell), or null for "100 ms after this process's connections are
 *     up". Connections open and warm up before it; a process not ready by then fails instead of
 *     starting late (see {@link StartInstant})
 * @param wakeFloorProbe how long the machine's wake floor is measured before the clock, 0 (not
 *     measured: the bound is then the configured one and the slot interval's) or 100 ms to 10 s;
 *     default {@link #DEFAULT_WAKE_FLOOR_PROBE}
 * @param sourceAddresses the local addresses the connections are bound to, spread round-robin over
 *     them (connection k of the run, counted over all targets in order, binds to address k mod M);
 *     empty (the default) lets the OS choose. Each must be loopback (127.0.0.0/8 or ::1) and listed
 *     once, every target must then be loopback, and there may be at most {@link
 *     SourceAddresses#MAX} and no more than connections. A relay that limits per IP address sees M
 *     sources instead of one
 */
public record GeneratorConfig(
    List<TargetLoad> loads,
    Duration duration,
    Segment segment,
    int inflightCapPerConnection,
    Duration gracePeriod,
    Duration connectTimeout,
    boolean allowRemote,
    int maxFrameBytes,
    int senderThreads,
    Duration sendLagBound,
    Duration warmup,
    WindowListener windowListener,
    Instant startAt,
    Duration wakeFloorProbe,
    List<InetAddress> sourceAddresses) {

  public static final Duration MAX_DURATION = Duration.ofHours(24);
  public static final int DEFAULT_INFLIGHT_CAP = 10_000;
  public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofSeconds(10);

  /**
   * Generous because the clock does not start until every connection is up, so a long wait costs
   * the measurement nothing; it only delays the report of a relay that never answers. 10 s failed
   * the first cell of NostrRelayJsIT with two busy loops beside it: the cold, starved JVM took 20 s
   * to pre-sign 30 events and did not finish Jetty's upgrades within 10 s.
   */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(60);

  public static final int DEFAULT_MAX_FRAME_BYTES = 1 << 20;

  /** Most events one target may need in a run (warm-up included): they are indexed by int. */
  public static final long MAX_EVENTS_PER_TARGET = Integer.MAX_VALUE - 8;

  public static final int DEFAULT_SENDER_THREADS = 2;

  /**
   * The one default send-lag bound, for {@code generate}, {@code sweep} and {@code experiment}
   * alike (docs/GENERATOR.md, "Self-check"): far below the service times a relay under test shows,
   * and above the scheduler jitter a generator sharing its cores with the relay sees. The machine's
   * wake floor raises it further where a bare wait is late.
   */
  public static final Duration DEFAULT_SEND_LAG_BOUND = Duration.ofMillis(10);

  /** About a thousand 1 ms waits, a p99 from the ten latest; a sweep pays it per cell, so less. */
  public static final Duration DEFAULT_WAKE_FLOOR_PROBE = Duration.ofSeconds(1);

  /** A shorter probe holds fewer than a hundred 1 ms waits: no p99 worth stating. */
  public static final Duration MIN_WAKE_FLOOR_PROBE = Duration.ofMillis(100);

  public GeneratorConfig {
    List<String> p = new ArrayList<>();
    ConfigRules.targetProblems(loads, allowRemote, p);
    ConfigRules.timingProblems(duration, warmup, gracePeriod, connectTimeout, sendLagBound, p);
    StartInstant.problem(startAt).ifPresent(p::add);
    if (wakeFloorProbe == null
        || (!wakeFloorProbe.isZero()
            && (wakeFloorProbe.compareTo(MIN_WAKE_FLOOR_PROBE) < 0
                || wakeFloorProbe.compareTo(Duration.ofSeconds(10)) > 0))) {
      p.add("wake floor probe must be 0 or in [100 ms, 10 s], got " + wakeFloorProbe);
    }
    ConfigRules.connectionProblems(
        segment, inflightCapPerConnection, maxFrameBytes, senderThreads, p);
    p.addAll(SourceAddresses.problems(sourceAddresses, loads));
    if (windowListener == null) {
      p.add("window listener must not be null (use WindowListener.NONE)");
    }
    if (p.isEmpty()) {
      p.addAll(
          PlanSize.problems(
              loads, warmup.plus(duration), segment, Runtime.getRuntime().maxMemory()));
    }
    if (!p.isEmpty()) {
      throw new InvalidConfigException(p);
    }
    loads = List.copyOf(loads);
    sourceAddresses = List.copyOf(sourceAddresses);
  }

  /** Thrown by the constructor with every problem of the values given, all at once. */
  public static final class InvalidConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Not serialized with the exception: the message holds the same lines. */
    private final transient List<String> problems;

    InvalidConfigException(List<String> problems) {
      super(String.join("; ", problems));
      this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
      return problems;
    }
  }

  /** A builder with the defaults above, whole segment, loopback only. */
  public static Builder builder() {
    return new Builder();
  }

  /** Aggregate offered rate of this process's segment, events/s. */
  public double offeredPerS() {
    return loads.stream().mapToDouble(TargetLoad::ratePerS).sum() / segment.count();
  }

  /**
   * The send-lag p99 bound for target {@code i} before the machine's wake floor is known, µs: the
   * larger of {@link #sendLagBound} and 10% of the interval between this process's consecutive
   * slots of it. The run raises it to twice the floor it measures before the clock.
   */
  public long sendLagBoundUs(int i) {
    double intervalNanos = 1e9 * segment.count() / loads.get(i).ratePerS();
    return SelfCheck.lagBoundUs(sendLagBound.toNanos() / 1000, intervalNanos);
  }

  /** The whole configuration in one line. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    sb.append("generate ")
        .append(duration.toMillis() / 1000.0)
        .append(" s")
        .append(warmup.isZero() ? "" : " after " + warmup.toMillis() / 1000.0 + " s warm-up")
        .append(", segment ")
        .append(segment)
        .append(", cap ")
        .append(inflightCapPerConnection)
        .append("/conn, grace period ")
        .append(gracePeriod.toMillis() / 1000.0)
        .append(" s after the last send, connect timeout ")
        .append(connectTimeout.toMillis() / 1000.0)
        .append(" s, ")
        .append(allowRemote ? "remote allowed" : "loopback only")
        .append(", max frame ")
        .append(maxFrameBytes)
        .append(" B, ")
        .append(senderThreads)
        .append(" sender threads, send-lag p99 bound ");
    for (int i = 0; i < loads.size(); i++) {
      sb.append(i == 0 ? "" : " / ").append(sendLagBoundUs(i) / 1000.0);
    }
    sb.append(" ms (max of ")
        .append(sendLagBound.toNanos() / 1e6)
        .append(" ms and 10% of the slot interval; at least 2 x the wake floor)")
        .append(startAt == null ? "" : ", start at " + startAt)
        .append(sourceAddresses.isEmpty() ? "" : ", " + SourceAddresses.describe(sourceAddresses))
        .append(": ");
    for (int i = 0; i < loads.size(); i++) {
      sb.append(i == 0 ? "" : " + ").append(loads.get(i).describe());
    }
    return sb.toString();
  }

  /**
   * This configuration with slot 0 due at {@code at} (a {@link StartGate}'s instant, once it is
   * chosen).
   *
   * @throws InvalidConfigException as the constructor
   */
  public GeneratorConfig withStartAt(Instant at) {
    return toBuilder().startAt(at).build();
  }

  /** A builder holding every value of this configuration, to change some and build again. */
  public Builder toBuilder() {
    Builder b =
        builder()
            .duration(duration)
            .segment(segment)
            .inflightCapPerConnection(inflightCapPerConnection)
            .gracePeriod(gracePeriod)
            .connectTimeout(connectTimeout)
            .allowRemote(allowRemote)
            .maxFrameBytes(maxFrameBytes)
            .senderThreads(senderThreads)
            .sendLagBound(sendLagBound)
            .warmup(warmup)
            .windowListener(windowListener)
            .startAt(startAt)
            .wakeFloorProbe(wakeFloorProbe)
            .sourceAddresses(sourceAddresses);
    loads.forEach(b::load);
    return b;
  }

  /** Fluent builder; {@link #build()} throws with every problem at once. Not thread-safe. */
  public static final class Builder {
    private final List<TargetLoad> loads = new ArrayList<>();
    private Duration duration = Duration.ofSeconds(10);
    private Segment segment = Segment.WHOLE;
    private int inflightCap = DEFAULT_INFLIGHT_CAP;
    private Duration gracePeriod = DEFAULT_GRACE_PERIOD;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private boolean allowRemote;
    private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
    private int senderThreads = DEFAULT_SENDER_THREADS;
    private Duration sendLagBound = DEFAULT_SEND_LAG_BOUND;
    private Duration warmup = Duration.ZERO;
    private WindowListener windowListener = WindowListener.NONE;
    private Instant startAt;
    private Duration wakeFloorProbe = DEFAULT_WAKE_FLOOR_PROBE;
    private List<InetAddress> sourceAddresses = List.of();

    private Builder() {}

    public Builder load(TargetLoad load) {
      loads.add(Objects.requireNonNull(load, "load"));
      return this;
    }

    public Builder duration(Duration d) {
      this.duration = d;
      return this;
    }

    public Builder segment(Segment s) {
      this.segment = s;
      return this;
    }

    public Builder inflightCapPerConnection(int cap) {
      this.inflightCap = cap;
      return this;
    }

    public Builder gracePeriod(Duration d) {
      this.gracePeriod = d;
      return this;
    }

    /**
     * The old name of {@link #gracePeriod}, kept so existing callers compile; it was never a
     * per-publish timeout but the grace period after the last send.
     */
    public Builder publishTimeout(Duration d) {
      return gracePeriod(d);
    }

    public Builder connectTimeout(Duration d) {
      this.connectTimeout = d;
      return this;
    }

    public Builder allowRemote(boolean allow) {
      this.allowRemote = allow;
      return this;
    }

    public Builder maxFrameBytes(int bytes) {
      this.maxFrameBytes = bytes;
      return this;
    }

    public Builder senderThreads(int n) {
      this.senderThreads = n;
      return this;
    }

    public Builder sendLagBound(Duration d) {
      this.sendLagBound = d;
      return this;
    }

    public Builder warmup(Duration d) {
      this.warmup = d;
      return this;
    }

    public Builder windowListener(WindowListener l) {
      this.windowListener = l;
      return this;
    }

    /** The shared start instant of a segmented schedule; null (the default) starts on its own. */
    public Builder startAt(Instant at) {
      this.startAt = at;
      return this;
    }

    /** How long the wake floor is measured before the clock; {@link Duration#ZERO} skips it. */
    public Builder wakeFloorProbe(Duration d) {
      this.wakeFloorProbe = d;
      return this;
    }

    /**
     * The local addresses to bind the connections to, round-robin; empty (the default) lets the OS
     * choose. Loopback only.
     */
    public Builder sourceAddresses(List<InetAddress> addresses) {
      this.sourceAddresses = addresses == null ? null : new ArrayList<>(addresses);
      return this;
    }

    /** Every problem with the values set so far; empty when {@link #build()} would succeed. */
    public List<String> problems() {
      try {
        build();
        return List.of();
      } catch (InvalidConfigException e) {
        return e.problems();
      }
    }

    public GeneratorConfig build() {
      return new GeneratorConfig(
          loads,
          duration,
          segment,
          inflightCap,
          gracePeriod,
          connectTimeout,
          allowRemote,
          maxFrameBytes,
          senderThreads,
          sendLagBound,
          warmup,
          windowListener,
          startAt,
          wakeFloorProbe,
          sourceAddresses);
    }
  }
}
