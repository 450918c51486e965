package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.Target;
import dev.ceiling.experiment.internal.GeneratorChild;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.SegmentMerge;
import dev.ceiling.generator.TargetLoad;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/** The N-process path's failure reporting and its ready bound, without a relay. */
class GeneratorProcessesTest {

  static GeneratorConfig config(String url, double ratePerS, Duration duration) {
    Target t = new Target("a", url, null, List.of(), 1, 64);
    return GeneratorConfig.builder()
        .load(new TargetLoad(t, ratePerS, 4, 4))
        .duration(duration)
        .warmup(Duration.ofSeconds(2))
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  /**
   * A child that cannot connect fails the cell as an infrastructure failure that names its segment
   * and carries the child's own reason (its last "error:" line), and the children's progress
   * reached the caller labelled by segment. Real child JVMs; nothing listens on the port.
   */
  @Test
  void aChildThatCannotConnectIsNamedWithItsReason() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    GeneratorConfig cfg = config("ws://127.0.0.1:" + port + "/", 20, Duration.ofSeconds(1));
    // The start instant is chosen only once both are ready, which they never are here: each fails
    // on connecting, so no start instant can be missed. A ready bound of minutes costs nothing (the
    // children fail as soon as they get to connecting) and keeps a starved machine's JVM starts
    // from turning the failure under test into "not ready": at load 38 two children had not got
    // to connecting 65 s after launch.
    GeneratorProcesses processes =
        new GeneratorProcesses(
            2,
            lines::add,
            SegmentMerge::merge,
            i -> GeneratorChild.class.getName(),
            Duration.ofMinutes(10),
            GeneratorProcesses.AFTER_LAST_READY);
    assertThatThrownBy(() -> processes.run(cfg))
        .isInstanceOf(GeneratorException.class)
        .satisfies(
            e ->
                assertThat(((GeneratorException) e).kind())
                    .isEqualTo(GeneratorException.Kind.INFRASTRUCTURE))
        // Whichever child fails first fails the cell at once: both fail here.
        .hasMessageMatching("the generator process for segment [01]/2 exited 3: connect failed.*")
        .hasMessageContaining("127.0.0.1:" + port);
    assertThat(lines).anyMatch(l -> l.startsWith("2 generator processes, segments 0/2..1/2"));
    assertThat(lines).anyMatch(l -> l.matches("segment [01]/2: error: .*"));
  }

  @Test
  void theReadyBoundCoversJvmStartConnectingAndPreSigningEachProcesssShareSlowly() {
    // 10,000/s over 2 s warm-up + 10 s: 120,000 events, 60,000 per process at 500/s = 120 s,
    // after 180 s for the JVM and the configuration's 5 s connect timeout.
    GeneratorConfig cfg = config("ws://127.0.0.1:9/", 10_000, Duration.ofSeconds(10));
    assertThat(GeneratorProcesses.readyBound(cfg, 2)).isEqualTo(Duration.ofSeconds(305));
    assertThat(GeneratorProcesses.readyBound(cfg, 4)).isEqualTo(Duration.ofSeconds(245));
  }

  @Test
  void aChildThatStartedLateIsAnInfrastructureFailureAndOnlyExit2IsConfiguration() {
    // The engine refuses a passed fixed start instant as STARTED_LATE (StartAtIT); the child maps
    // that kind to its own code, and the parent reads that code as infrastructure, not as exit 2.
    int late = GeneratorChild.exitCode(GeneratorException.Kind.STARTED_LATE);
    assertThat(late).isEqualTo(GeneratorChild.STARTED_LATE).isNotEqualTo(2);
    assertThat(GeneratorProcesses.kindOfExit(late))
        .isEqualTo(GeneratorException.Kind.INFRASTRUCTURE);
    assertThat(
            GeneratorProcesses.kindOfExit(
                GeneratorChild.exitCode(GeneratorException.Kind.INFRASTRUCTURE)))
        .isEqualTo(GeneratorException.Kind.INFRASTRUCTURE);
    // Partner: a bad configuration is still exit 2, CONFIG.
    int config = GeneratorChild.exitCode(GeneratorException.Kind.CONFIG);
    assertThat(config).isEqualTo(2);
    assertThat(GeneratorProcesses.kindOfExit(config)).isEqualTo(GeneratorException.Kind.CONFIG);
  }

  @Test
  void zeroProcessesIsRefused() {
    assertThatThrownBy(() -> new GeneratorProcesses(0, l -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("generator processes must be >= 1, got 0");
  }
}
