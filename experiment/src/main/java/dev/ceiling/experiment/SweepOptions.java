package dev.ceiling.experiment;

import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.generator.GeneratorConfig;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a sweep measures each cell (everything that is not part of the experiment's identity).
 *
 * @param warmup load offered before each cell's measurement window, at the cell's rate, so a
 *     saturating cell is measured with its queue already full rather than banking the empty queue's
 *     capacity as free accepts; >= 0
 * @param connectionsPerTarget WebSocket connections per community, >= 1
 * @param identities signing keys per community, used round-robin, 1 to {@link #MAX_IDENTITIES};
 *     part of the identity ({@link #measurement()}): more keys spread the offer over more
 *     per-identity admission budgets
 * @param grace the grace period: how long answers are awaited after the last send, > 0 (the
 *     generator's name for it too)
 * @param drainTimeout how long to wait before a cell for the relay's backlog to drain, > 0
 * @param twoCommunity also measure report-only cells split across two communities
 * @param journal where finished cells are appended (JSON lines), never null
 * @param resume true to continue the journal instead of starting it
 * @param sendLagBound the generator self-check's send-lag p99 bound: above it a cell is
 *     generator-bound and excluded. {@link GeneratorConfig#DEFAULT_SEND_LAG_BOUND} (10 ms) by
 *     default, as for the stand-alone generator: on a 2-core machine that also runs the relay,
 *     scheduler jitter alone puts p99 at 1-4 ms and a single GC or JIT pause (5-15 ms) decides the
 *     p99 of a short window, while the offered count over a window of seconds is exact and the
 *     scheduled latency (from the intended slot) already includes every late send, so nothing is
 *     hidden by the looser bound
 * @param generators local generator processes each cell's load is given to, 1 to {@link
 *     #MAX_GENERATORS}. 1 (the default) runs the generator in this process; N > 1 runs segments
 *     0/N..N-1/N of the cell's schedule as N child JVMs from one start instant a few seconds ahead
 *     and merges their reports exactly (summed counts, merged raw histograms). Each child opens
 *     connections / N connections and signs with identities / N keys per target (at least 1), so
 *     the relay sees the same totals when N divides them
 * @param connectTimeout the longest wait for a cell's WebSocket connections (TCP and handshake), >
 *     0; a relay that never completes the handshake fails the cell after it (default {@link
 *     dev.ceiling.generator.GeneratorConfig#DEFAULT_CONNECT_TIMEOUT})
 * @param sourceAddresses the loopback addresses the cell's connections are bound to, round-robin
 *     (the relay sees that many clients); empty (the default) lets the OS choose. Part of the
 *     identity as their number. Not with more than one generator process
 */
public record SweepOptions(
    Duration warmup,
    int connectionsPerTarget,
    int identities,
    Duration grace,
    Duration drainTimeout,
    boolean twoCommunity,
    Path journal,
    boolean resume,
    Duration sendLagBound,
    int generators,
    Duration connectTimeout,
    List<InetAddress> sourceAddresses) {

  public SweepOptions {
    Objects.requireNonNull(warmup, "warmup");
    if (warmup.isNegative()) {
      throw new IllegalArgumentException("warmup must be >= 0, got " + warmup);
    }
    if (connectionsPerTarget < 1) {
      throw new IllegalArgumentException(
          "connections_per_target must be >= 1, got " + connectionsPerTarget);
    }
    if (identities < 1 || identities > MAX_IDENTITIES) {
      throw new IllegalArgumentException(
          "identities must be in [1, " + MAX_IDENTITIES + "], got " + identities);
    }
    positive("grace", grace);
    positive("drain_timeout", drainTimeout);
    Objects.requireNonNull(journal, "journal must not be null");
    positive("send_lag_bound", sendLagBound);
    if (generators < 1 || generators > MAX_GENERATORS) {
      throw new IllegalArgumentException(
          "generators must be in [1, " + MAX_GENERATORS + "], got " + generators);
    }
    positive("connect_timeout", connectTimeout);
    sourceAddresses = List.copyOf(Objects.requireNonNull(sourceAddresses, "source_addresses"));
    if (generators > 1 && !sourceAddresses.isEmpty()) {
      // The child generators' segment specs do not carry addresses: refused rather than dropped.
      throw new IllegalArgumentException(
          "source addresses need the generator in this process (generators 1), got generators "
              + generators);
    }
  }

  /** The options before the connect timeout was one, with the generator's default for it. */
  public SweepOptions(
      Duration warmup,
      int connectionsPerTarget,
      int identities,
      Duration grace,
      Duration drainTimeout,
      boolean twoCommunity,
      Path journal,
      boolean resume,
      Duration sendLagBound,
      int generators) {
    this(
        warmup,
        connectionsPerTarget,
        identities,
        grace,
        drainTimeout,
        twoCommunity,
        journal,
        resume,
        sendLagBound,
        generators,
        GeneratorConfig.DEFAULT_CONNECT_TIMEOUT,
        List.of());
  }

  /** Signing keys per community by default. */
  public static final int DEFAULT_IDENTITIES = 8;

  /** The most signing keys per community: each is generated and its events pre-signed. */
  public static final int MAX_IDENTITIES = 10_000;

  /** The most generator processes one cell may be given. */
  public static final int MAX_GENERATORS = 256;

  /** The generator's one default send-lag bound (docs/GENERATOR.md), for sweeps too. */
  public static final Duration DEFAULT_SEND_LAG_BOUND = GeneratorConfig.DEFAULT_SEND_LAG_BOUND;

  /**
   * Defaults for the given journal: 2 s warm-up, 8 connections, 8 identities, 2 s grace period, 60
   * s drain timeout, 10 ms send-lag bound.
   */
  public static SweepOptions defaults(Path journal) {
    return new SweepOptions(
        Duration.ofSeconds(2),
        8,
        DEFAULT_IDENTITIES,
        // Throughput is counted by answers arriving inside the window, so the grace period after
        // it only decides how many late answers reach the latency histograms; 2 s keeps a
        // saturated cell (whose backlog never clears in time) from idling long.
        Duration.ofSeconds(2),
        Duration.ofSeconds(60),
        false,
        journal,
        false,
        DEFAULT_SEND_LAG_BOUND,
        1);
  }

  public SweepOptions withResume(boolean value) {
    return with(f -> f.resume = value);
  }

  public SweepOptions withTwoCommunity(boolean value) {
    return with(f -> f.twoCommunity = value);
  }

  public SweepOptions withWarmup(Duration value) {
    return with(f -> f.warmup = value);
  }

  public SweepOptions withJournal(Path value) {
    return with(f -> f.journal = value);
  }

  public SweepOptions withGrace(Duration value) {
    return with(f -> f.grace = value);
  }

  public SweepOptions withDrainTimeout(Duration value) {
    return with(f -> f.drainTimeout = value);
  }

  public SweepOptions withSendLagBound(Duration value) {
    return with(f -> f.sendLagBound = value);
  }

  public SweepOptions withIdentities(int value) {
    return with(f -> f.identities = value);
  }

  public SweepOptions withGenerators(int value) {
    return with(f -> f.generators = value);
  }

  public SweepOptions withConnectTimeout(Duration value) {
    return with(f -> f.connectTimeout = value);
  }

  public SweepOptions withConnectionsPerTarget(int value) {
    return with(f -> f.connectionsPerTarget = value);
  }

  public SweepOptions withSourceAddresses(List<InetAddress> value) {
    return with(f -> f.sourceAddresses = value);
  }

  /** A copy of these options with one field changed: what every wither returns. */
  private SweepOptions with(Consumer<Fields> change) {
    Fields f = new Fields(this);
    change.accept(f);
    return new SweepOptions(
        f.warmup,
        f.connectionsPerTarget,
        f.identities,
        f.grace,
        f.drainTimeout,
        f.twoCommunity,
        f.journal,
        f.resume,
        f.sendLagBound,
        f.generators,
        f.connectTimeout,
        f.sourceAddresses);
  }

  /** The components, to change one in {@link #with}; the record's constructor still checks all. */
  private static final class Fields {
    Duration warmup;
    int connectionsPerTarget;
    int identities;
    Duration grace;
    Duration drainTimeout;
    boolean twoCommunity;
    Path journal;
    boolean resume;
    Duration sendLagBound;
    int generators;
    Duration connectTimeout;
    List<InetAddress> sourceAddresses;

    Fields(SweepOptions o) {
      warmup = o.warmup;
      connectionsPerTarget = o.connectionsPerTarget;
      identities = o.identities;
      grace = o.grace;
      drainTimeout = o.drainTimeout;
      twoCommunity = o.twoCommunity;
      journal = o.journal;
      resume = o.resume;
      sendLagBound = o.sendLagBound;
      generators = o.generators;
      connectTimeout = o.connectTimeout;
      sourceAddresses = o.sourceAddresses;
    }
  }

  /**
   * The settings that are part of the experiment's identity: warm-up, grace, send-lag bound,
   * identities per community and the number of source addresses (null when the OS chooses).
   */
  public MeasurementSettings measurement() {
    return new MeasurementSettings(
        warmup.toNanos() / 1e9,
        grace.toNanos() / 1e9,
        sendLagBound.toNanos() / 1e6,
        identities,
        sourceAddresses.isEmpty() ? null : sourceAddresses.size());
  }

  private static void positive(String name, Duration d) {
    if (d == null || d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be > 0, got " + d);
    }
  }
}
