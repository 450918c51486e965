package dev.ceiling.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Target;
import dev.ceiling.generator.testing.TestRelay;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A run stopped from another thread ends early with what it sent and answered, marked incomplete;
 * the partner, a run nobody stops, is complete. Counts only: how much goes out before the stop
 * depends on the machine, the outcome does not.
 */
class StopRequestIT {
  private static GeneratorConfig cfg(TestRelay relay, Duration d) {
    return GeneratorConfig.builder()
        .load(new TargetLoad(new Target("a", relay.url(), null, List.of(), 1, 64), 50, 1, 1))
        .duration(d)
        .gracePeriod(Duration.ofSeconds(10))
        .build();
  }

  @Test
  void aStoppedRunReportsWhatWasSentAndAnsweredMarkedIncomplete() throws Exception {
    try (TestRelay relay = new TestRelay(new TestRelay.Behavior() {})) {
      StopRequest stop = new StopRequest();
      CompletableFuture<GeneratorReport> run =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return Generator.run(
                      cfg(relay, Duration.ofMinutes(2)),
                      line -> {
                        // Stop once the relay has answered something: mid-run, with counts.
                        if (line.matches("t=\\S+ sent=[1-9]\\d* answered=[1-9]\\d*")) {
                          stop.request("test");
                        }
                      },
                      stop);
                } catch (GeneratorException e) {
                  throw new IllegalStateException(e);
                }
              });
      GeneratorReport r = run.get(3, TimeUnit.MINUTES);

      assertThat(r.incomplete()).startsWith("stopped by test after ");
      GeneratorReport.Result a = r.aggregate();
      assertThat(a.attempted()).isPositive();
      assertThat(a.accepted()).isPositive().isLessThanOrEqualTo(a.attempted());
      assertThat(a.slotsPlanned()).isEqualTo(a.slotsSent() + a.slotsUnsentLate()).isLessThan(6000);
      // Slots that never came due are not "unsent late": the stop does not read as a slow
      // generator.
      assertThat(a.slotsUnsentLate()).isZero();
      assertThat(Json.read(Json.write(r), "report", GeneratorReport.class).incomplete())
          .isEqualTo(r.incomplete());
    }
  }

  @Test
  void aRunNobodyStopsIsComplete() throws Exception {
    try (TestRelay relay = new TestRelay(new TestRelay.Behavior() {})) {
      GeneratorReport r =
          Generator.run(
              cfg(relay, Duration.ofSeconds(1)), ProgressListener.NONE, new StopRequest());

      assertThat(r.incomplete()).isNull();
      assertThat(r.aggregate().slotsPlanned()).isEqualTo(50);
    }
  }

  @Test
  void aStopNeedsAReasonAndTheFirstOneWins() {
    StopRequest stop = new StopRequest();
    assertThat(stop.requested()).isFalse();
    assertThatThrownBy(() -> stop.request(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a stop needs a reason, got ' '");
    stop.request("SIGINT");
    stop.request("SIGTERM");
    assertThat(stop.reason()).contains("SIGINT");
  }
}
