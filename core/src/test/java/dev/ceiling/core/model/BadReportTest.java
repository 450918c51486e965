package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Each kind of bad report, made by editing one value of the golden half-run, fails with the file,
 * the JSON path of the value and the rule it broke, exactly.
 */
class BadReportTest {
  private static final String FILE = "runs/on.json";

  /** The golden half-run with the {@code nth} (0-based) occurrence of {@code from} replaced. */
  private static String edit(String from, String to, int nth) throws IOException {
    String text = GoldenFilesTest.golden("half-run.json");
    int at = -1;
    for (int i = 0; i <= nth; i++) {
      at = text.indexOf(from, at + 1);
      assertThat(at).as("occurrence %d of %s", i, from).isNotNegative();
    }
    return text.substring(0, at) + to + text.substring(at + from.length());
  }

  private static void fails(String text, String message) {
    assertThatThrownBy(() -> Json.read(text, FILE, HalfRun.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessage(message);
  }

  @Test
  void theUneditedGoldenReads() throws Exception {
    assertThat(Json.read(edit("\"notices\" : 2,", "\"notices\" : 2,", 0), FILE, HalfRun.class))
        .isEqualTo(GoldenFixtures.halfRun());
  }

  @Test
  void aNaNNamesItsFieldAndNoParserSetting() throws IOException {
    // Mutant partner: theUneditedGoldenReads (the same document with a number there reads).
    assertThatThrownBy(
            () ->
                Json.read(edit("\"headroom\" : 1.8", "\"headroom\" : NaN", 0), FILE, HalfRun.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessage(
            FILE
                + ": $.cells[1].environment.headroom: NaN is not a measurement: a number must be"
                + " finite (write null where there is no value)")
        .hasMessageNotContaining("Feature")
        .hasMessageNotContaining("ALLOW_");
    assertThatThrownBy(
            () ->
                Json.read(
                    edit("\"duration_s\" : 30.0", "\"duration_s\" : -Infinity", 0),
                    FILE,
                    HalfRun.class))
        .hasMessageStartingWith(FILE + ": $.identity.duration_s: -Infinity is not a measurement");
  }

  @Test
  void missingField() throws IOException {
    fails(
        edit("      \"accepted\" : 58000,\n", "", 0),
        FILE
            + ": $.cells[1].counts.accepted: missing field; every field must be present (null where not"
            + " applicable)");
  }

  @Test
  void unknownField() throws IOException {
    fails(
        edit("\"notices\" : 2,", "\"notices\" : 2, \"dropped\" : 0,", 0),
        FILE
            + ": $.cells[1].counts.dropped: unknown field 'dropped'; expected one of [accepted,"
            + " accepted_by_community, accepted_in_window, accepted_in_window_first_half,"
            + " accepted_in_window_own_slots, accepted_in_window_second_half,"
            + " accepted_over_offered, accepted_per_s, attempted, first_notice, notices,"
            + " outstanding_at_window_end, outstanding_at_window_mid, outstanding_at_window_start,"
            + " rejected, rejected_by_prefix, rejected_in_window_first_half,"
            + " rejected_in_window_second_half, silence_at_window_end_s, transport_errors,"
            + " unacknowledged,"
            + " unknown_ok_ids, warmup_slots_sent, window_slots_outstanding_at_end]");
  }

  @Test
  void wrongTypes() throws IOException {
    fails(
        edit("\"accepted\" : 58000,", "\"accepted\" : \"58000\",", 0),
        FILE + ": $.cells[1].counts.accepted: expected long, got String value (\"58000\")");
    fails(
        edit("\"arm\" : \"on\",", "\"arm\" : 5,", 2),
        FILE + ": $.cells[0].key.arm: expected String, got 5");
    fails(
        edit("\"complete\" : true,", "\"complete\" : \"true\",", 0),
        FILE + ": $.complete: expected boolean, got String value (\"true\")");
    fails(
        edit("\"accepted\" : 58000,", "\"accepted\" : 58000.5,", 0),
        FILE + ": $.cells[1].counts.accepted: expected long, got 58000.5");
    fails(
        edit("\"accepted\" : 58000,", "\"accepted\" : null,", 0),
        FILE + ": $.cells[1].counts.accepted: expected long, got null");
  }

  @Test
  void negativeCount() throws IOException {
    fails(
        edit("\"unacknowledged\" : 500,", "\"unacknowledged\" : -1,", 0),
        FILE + ": $.cells[1].counts.unacknowledged: unacknowledged must be >= 0, got -1");
  }

  @Test
  void acceptedMoreThanAttempted() throws IOException {
    fails(
        edit("\"attempted\" : 60000,", "\"attempted\" : 50000,", 0),
        FILE
            + ": $.cells[1].counts.accepted: accepted + rejected must be <= attempted, got 58000 + 1500"
            + " > 50000");
  }

  @Test
  void notApplicableWrittenAsZero() throws IOException {
    // The relay has no queue: null, never 0.
    fails(
        edit("\"queue_capacity\" : 10000,", "\"queue_capacity\" : 0,", 1),
        FILE + ": $.rig.queue_capacity: queue_capacity must be >= 1 or null, got 0");
    // An empty distribution has no median.
    fails(
        edit("\"p50_ms\" : null,", "\"p50_ms\" : 0.0,", 0),
        FILE
            + ": $.cells[0].latencies.send_lag: percentiles must be null when count is 0, got [0.0, null,"
            + " null, null, null]");
  }

  @Test
  void notANumberIsNeverAccepted() throws IOException {
    fails(
        edit("\"audit_log_sum_seconds\" : 23.94,", "\"audit_log_sum_seconds\" : \"NaN\",", 0),
        FILE
            + ": $.cells[1].relay.counter_deltas.audit_log_sum_seconds: counter_deltas.audit_log_sum_seconds"
            + " must be finite or null, got NaN");
  }
}
