package dev.ceiling.experiment.internal;

import dev.ceiling.core.model.Target;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.Segment;
import dev.ceiling.generator.TargetLoad;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What one generator child process runs: segment i/N of a cell's schedule from a shared start
 * instant, as JSON the parent writes and {@link GeneratorChild} reads. Plain values only (a window
 * listener cannot cross a process boundary; the parent scrapes at the window's wall-clock edges).
 *
 * @param loads one per target; rates are the whole schedule's (the segment takes its share)
 * @param durationNanos the measured window, > 0
 * @param warmupNanos load on the same schedule before the window, >= 0
 * @param sendLagBoundNanos the self-check's send-lag p99 floor
 * @param gracePeriodNanos the longest wait for outstanding OKs after the last send
 * @param connectTimeoutNanos the longest wait for the connections
 * @param senderThreads sender threads of the child
 * @param inflightCapPerConnection unanswered events per connection before the next slot waits
 * @param maxFrameBytes the largest relay message accepted
 * @param allowRemote whether a non-loopback target is allowed (as the parent's configuration says)
 * @param segmentIndex i of i/N
 * @param segmentCount N of i/N
 * @param startAt the wall-clock instant of slot 0, shared by every segment
 * @param wakeFloorProbeNanos how long the child measures the wake floor (the lead before {@code
 *     startAt} may shorten it)
 */
public record SegmentSpec(
    List<Load> loads,
    long durationNanos,
    long warmupNanos,
    long sendLagBoundNanos,
    long gracePeriodNanos,
    long connectTimeoutNanos,
    int senderThreads,
    int inflightCapPerConnection,
    int maxFrameBytes,
    boolean allowRemote,
    int segmentIndex,
    int segmentCount,
    Instant startAt,
    long wakeFloorProbeNanos) {

  /** One target's load as the child offers it. */
  public record Load(Target target, double ratePerS, int connections, int identities) {}

  public SegmentSpec {
    Objects.requireNonNull(loads, "loads");
    Objects.requireNonNull(startAt, "start_at");
    loads = List.copyOf(loads);
  }

  /**
   * Segment {@code i} of {@code n} of {@code whole}, starting at {@code startAt}. Each child opens
   * {@code max(1, connections / n)} connections and signs with {@code max(1, identities / n)} keys
   * per target, so that the relay sees the same totals as from one process whenever n divides them
   * (a per-connection or per-identity limiter then sees the same per-key rate).
   */
  public static SegmentSpec of(GeneratorConfig whole, int i, int n, Instant startAt) {
    return new SegmentSpec(
        whole.loads().stream()
            .map(
                l ->
                    new Load(
                        l.target(),
                        l.ratePerS(),
                        Math.max(1, l.connections() / n),
                        Math.max(1, l.identities() / n)))
            .toList(),
        whole.duration().toNanos(),
        whole.warmup().toNanos(),
        whole.sendLagBound().toNanos(),
        whole.gracePeriod().toNanos(),
        whole.connectTimeout().toNanos(),
        whole.senderThreads(),
        whole.inflightCapPerConnection(),
        whole.maxFrameBytes(),
        whole.allowRemote(),
        i,
        n,
        startAt,
        whole.wakeFloorProbe().toNanos());
  }

  /** The child's generator configuration. */
  public GeneratorConfig toConfig() {
    GeneratorConfig.Builder b =
        GeneratorConfig.builder()
            .duration(Duration.ofNanos(durationNanos))
            .warmup(Duration.ofNanos(warmupNanos))
            .sendLagBound(Duration.ofNanos(sendLagBoundNanos))
            .gracePeriod(Duration.ofNanos(gracePeriodNanos))
            .connectTimeout(Duration.ofNanos(connectTimeoutNanos))
            .senderThreads(senderThreads)
            .inflightCapPerConnection(inflightCapPerConnection)
            .maxFrameBytes(maxFrameBytes)
            .allowRemote(allowRemote)
            .segment(new Segment(segmentIndex, segmentCount))
            .startAt(startAt)
            .wakeFloorProbe(Duration.ofNanos(wakeFloorProbeNanos));
    for (Load l : loads) {
      b.load(new TargetLoad(l.target(), l.ratePerS(), l.connections(), l.identities()));
    }
    return b.build();
  }
}
