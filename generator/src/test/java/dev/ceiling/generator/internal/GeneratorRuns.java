package dev.ceiling.generator.internal;

import dev.ceiling.core.model.Target;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.ProgressListener;
import dev.ceiling.generator.TargetLoad;
import dev.ceiling.generator.testing.TestRelay;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * What the generator's integration tests share: a one-target load, its configuration, a run that
 * prints its latencies, a JVM warm-up, and a client that waits for each OK (a mutant both halves
 * use).
 */
final class GeneratorRuns {
  private GeneratorRuns() {}

  static TargetLoad load(String url, String host, double rate, int conns) {
    return new TargetLoad(
        new Target("a", url, host, List.of(List.of("h", "bench")), 1, 64), rate, conns, 2);
  }

  static GeneratorConfig cfg(
      TargetLoad l, Duration d, Duration gracePeriod, int cap, int maxFrame) {
    return GeneratorConfig.builder()
        .load(l)
        .duration(d)
        .gracePeriod(gracePeriod)
        .connectTimeout(Duration.ofSeconds(5))
        .inflightCapPerConnection(cap)
        .maxFrameBytes(maxFrame)
        .build();
  }

  /** The usual test configuration: one target on {@code relay}, no Host, cap 1000, 1 MiB frames. */
  static GeneratorConfig cfg(
      TestRelay relay, double rate, int conns, Duration d, Duration gracePeriod) {
    return cfg(load(relay.url(), null, rate, conns), d, gracePeriod, 1000, 1 << 20);
  }

  static GeneratorReport run(GeneratorConfig c, RunStrategies strategies)
      throws GeneratorException {
    GeneratorReport r = Engine.run(c, ProgressListener.NONE, strategies);
    // Kept in the surefire output file, so a failure on a noisy box can be read afterwards.
    System.out.println(
        "lag "
            + r.aggregate().sendLag().toString().replaceAll("histogramUsBase64=.*", "")
            + " service "
            + r.aggregate().service().toString().replaceAll("histogramUsBase64=.*", "")
            + " scheduled "
            + r.aggregate().scheduled().toString().replaceAll("histogramUsBase64=.*", "")
            + " bound="
            + r.generatorBoundReason()
            + " headroom="
            + r.headroom());
    return r;
  }

  /**
   * One short run first: on a cold JVM the first cell runs interpreted while the JIT competes for
   * the same two cores, and its latencies describe the JIT, not the relay.
   */
  static void warmUpTheJvm() throws Exception {
    try (TestRelay relay = new TestRelay(new TestRelay.Behavior() {})) {
      Engine.run(
          cfg(
              load(relay.url(), null, 300, 2),
              Duration.ofMillis(700),
              Duration.ofSeconds(1),
              1000,
              1 << 20),
          ProgressListener.NONE,
          RunStrategies.PRODUCTION);
    }
  }

  /**
   * A sender that, before each slot, waits (up to {@code atMostNanos}, polling every {@code
   * pollNanos}) until its connection has no event in flight: a client that waits for responses.
   */
  static RunStrategies waitsForEachOk(long atMostNanos, long pollNanos) {
    return TestStrategies.withSendClock(
        RunStrategies.PRODUCTION,
        (conn, slots) -> {
          for (int m = 0; m < slots; m++) {
            long until = System.nanoTime() + atMostNanos;
            while (conn.inflight() > 0 && System.nanoTime() < until) {
              LockSupport.parkNanos(pollNanos);
            }
          }
          return System.nanoTime();
        });
  }
}
