package dev.ceiling.generator;

import dev.ceiling.core.net.Loopback;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * The value rules of a {@link GeneratorConfig}, by group; each adds one line per broken rule, so
 * the constructor reports every problem at once.
 */
final class ConfigRules {
  private ConfigRules() {}

  static void targetProblems(List<TargetLoad> loads, boolean allowRemote, List<String> p) {
    if (loads == null || loads.isEmpty()) {
      p.add("at least one target is required");
    } else {
      for (int i = 0; i < loads.size(); i++) {
        TargetLoad l = loads.get(i);
        if (l == null) {
          p.add("target " + (i + 1) + " must not be null");
          continue;
        }
        String host = URI.create(l.target().url()).getHost();
        if (!allowRemote && !Loopback.isLoopbackHost(host)) {
          p.add(
              "target "
                  + (i + 1)
                  + " host '"
                  + host
                  + "' is not loopback ("
                  + Loopback.ACCEPTED
                  + "); refusing without --allow-remote, because a load"
                  + " generator must not be pointed at relays you don't run");
        }
      }
    }
  }

  static void timingProblems(
      Duration duration,
      Duration warmup,
      Duration gracePeriod,
      Duration connectTimeout,
      Duration sendLagBound,
      List<String> p) {
    if (duration == null || duration.isNegative() || duration.isZero()) {
      p.add("duration must be > 0, got " + duration);
    } else if (duration.compareTo(GeneratorConfig.MAX_DURATION) > 0) {
      p.add("duration must be <= " + GeneratorConfig.MAX_DURATION + ", got " + duration);
    }
    if (gracePeriod == null || gracePeriod.isNegative() || gracePeriod.isZero()) {
      p.add("grace period must be > 0, got " + gracePeriod);
    }
    if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()) {
      p.add("connect timeout must be > 0, got " + connectTimeout);
    }
    if (sendLagBound == null
        || sendLagBound.toNanos() < 1_000
        || sendLagBound.compareTo(Duration.ofSeconds(10)) > 0) {
      p.add("send lag bound must be in [1 us, 10 s], got " + sendLagBound);
    }
    if (warmup == null || warmup.isNegative() || warmup.compareTo(Duration.ofHours(1)) > 0) {
      p.add("warmup must be in [0, 1 h], got " + warmup);
    }
  }

  static void connectionProblems(
      Segment segment, int inflightCap, int maxFrameBytes, int senderThreads, List<String> p) {
    if (segment == null) {
      p.add("segment must not be null (use 0/1)");
    }
    if (inflightCap < 1) {
      p.add("inflight cap must be >= 1 per connection, got " + inflightCap);
    }
    if (maxFrameBytes < 1024 || maxFrameBytes > (64 << 20)) {
      p.add("max frame bytes must be in [1024, " + (64 << 20) + "], got " + maxFrameBytes);
    }
    if (senderThreads < 1 || senderThreads > 64) {
      p.add("sender threads must be in [1, 64], got " + senderThreads);
    }
  }
}
