package dev.ceiling.experiment.internal;

import dev.ceiling.core.model.Target;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.Segment;
import dev.ceiling.generator.TargetLoad;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What one generator child process runs: segment i/N of a cell's schedule, as JSON the parent
 * writes and {@link GeneratorChild} reads. The shared start instant is not in it: the parent
 * chooses it once every child is ready ({@link StartHandshake}). Plain values only (a window
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
 * @param wakeFloorProbeNanos how long the child measures the wake floor (the lead before the start
 *     instant may shorten it)
 * @param startWaitNanos the longest the child waits, ready, for the start instant (then it fails)
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
    long wakeFloorProbeNanos,
    long startWaitNanos) {

  /** One target's load as the child offers it. */
  public record Load(Target target, double ratePerS, int connections, int identities) {}

  public SegmentSpec {
    Objects.requireNonNull(loads, "loads");
    loads = List.copyOf(loads);
  }

  /**
   * Segment {@code i} of {@code n} of {@code whole}, waiting up to {@code startWait} for its start
   * instant once ready. Each child opens {@code max(1, connections / n)} connections and signs with
   * {@code max(1, identities / n)} keys per target, so that the relay sees the same totals as from
   * one process whenever n divides them (a per-connection or per-identity limiter then sees the
   * same per-key rate).
   */
  public static SegmentSpec of(GeneratorConfig whole, int i, int n, Duration startWait) {
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
        whole.wakeFloorProbe().toNanos(),
        startWait.toNanos());
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
            .wakeFloorProbe(Duration.ofNanos(wakeFloorProbeNanos));
    for (Load l : loads) {
      b.load(new TargetLoad(l.target(), l.ratePerS(), l.connections(), l.identities()));
    }
    return b.build();
  }
}
