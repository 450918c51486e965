package dev.ceiling.cli.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.experiment.testing.Relays;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code ceiling generate} child on the real reference relay, signalled mid-run as a
 * terminal (SIGINT) or a supervisor (SIGTERM) does: it exits 130 and still writes --json, marked
 * incomplete with the signal's name, holding what was sent and answered before the stop. The
 * partner is a run nobody stops: its report is complete. Waits are bounded generously and only
 * counts are asserted, so a busy machine changes how much was sent, never the outcome.
 */
class GenerateSignalIT {
  /** A progress line once the relay has answered something: the run is mid-way, with counts. */
  private static final Pattern ANSWERED = Pattern.compile("t=\\S+ sent=[1-9]\\d* answered=[1-9]");

  private static final int RATE = 50;

  @TempDir static Path rigDir;
  static RigHandle rig;
  static String url;

  @TempDir Path dir;
  Child child;

  @BeforeAll
  static void up() throws Exception {
    rig =
        Rig.up(
            UpOptions.of(Relays.reference(), "off", rigDir.resolve("rig"))
                .withReset(true)
                .withOverrides(Relays.freePorts(Relays.UNDELAYED)));
    url =
        "url="
            + rig.descriptor().targets().get(0).url()
            + ",host="
            + rig.descriptor().targets().get(0).hostHeader()
            + ",rate="
            + RATE;
  }

  @AfterAll
  static void down() throws Exception {
    if (rig != null) {
      rig.close();
    }
  }

  @AfterEach
  void cleanUp() throws Exception {
    if (child != null) {
      child.killIfAlive();
    }
  }

  private GeneratorReport stoppedBy(String signal) throws Exception {
    Path json = dir.resolve(signal + ".json");
    child =
        Child.start(
            dir,
            signal,
            List.of("generate", "--duration", "120s", "--json", json.toString(), "--target", url));
    assertThat(
            child.awaitCondition(
                () -> {
                  try {
                    return ANSWERED.matcher(child.err()).find();
                  } catch (java.io.IOException e) {
                    return false;
                  }
                },
                Duration.ofMinutes(2)))
        .as("the relay answered some events\n%s", child)
        .isTrue();
    if (signal.equals("SIGTERM")) {
      child.terminate();
    } else {
      child.interrupt();
    }
    assertThat(child.await(Duration.ofMinutes(2))).as(child.toString()).isEqualTo(130);
    assertThat(child.err())
        .contains(
            "generate: " + signal + ": stopping after the slots already due",
            "generate: INCOMPLETE report written to " + json + ": stopped by " + signal);
    // The project's own strict reader: every rule of the report's records holds.
    GeneratorReport r = Json.read(json, GeneratorReport.class);
    GeneratorReport.Result a = r.aggregate();
    assertThat(r.incomplete()).startsWith("stopped by " + signal + " after ");
    assertThat(a.attempted()).isPositive();
    assertThat(a.accepted() + a.rejected()).isPositive().isLessThanOrEqualTo(a.attempted());
    // Only the slots that came due are planned: the 120 s schedule was cut short.
    assertThat(a.slotsPlanned())
        .isEqualTo(a.slotsSent() + a.slotsUnsentLate() + a.slotsUnsentDeadConnection())
        .isLessThan(120L * RATE);
    return r;
  }

  @Test
  void sigintWritesAnIncompleteReportAndExits130() throws Exception {
    stoppedBy("SIGINT");
  }

  @Test
  void sigtermWritesAnIncompleteReportAndExits130() throws Exception {
    stoppedBy("SIGTERM");
  }

  @Test
  void aRunNobodyStopsWritesACompleteReport() throws Exception {
    Path json = dir.resolve("whole.json");
    child =
        Child.start(
            dir,
            "whole",
            List.of("generate", "--duration", "2s", "--json", json.toString(), "--target", url));

    assertThat(child.await(Duration.ofMinutes(2))).as(child.toString()).isZero();
    GeneratorReport r = Json.read(json, GeneratorReport.class);
    assertThat(r.incomplete()).isNull();
    assertThat(r.aggregate().slotsPlanned()).isEqualTo(2L * RATE);
    assertThat(child.err()).doesNotContain("INCOMPLETE");
  }
}
