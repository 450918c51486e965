package dev.ceiling.generator;

import static dev.ceiling.generator.SegmentReports.us;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.model.LatencySummary;
import java.lang.reflect.RecordComponent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link GeneratorReport.Result#sum} is the one place results add up (targets into the aggregate,
 * segments into the whole). Checked component by component through the record's own component list,
 * so a component added to the record without a rule here fails instead of going unchecked.
 */
class ResultSumTest {
  static final double OFFERED_PER_S = 70.0;
  static final double DURATION_S = 2.0;

  /**
   * One part's counts, each different from the others (so a swapped pair shows) and consistent
   * (planned = sent + unsent, sent = accepted + rejected + unacknowledged). A part is these times a
   * factor, so the two parts differ in every count and a dropped one shows.
   */
  static final Map<String, Long> COUNTS =
      Map.ofEntries(
          Map.entry("slots_planned", 100L),
          Map.entry("slots_sent", 90L),
          Map.entry("slots_unsent_late", 7L),
          Map.entry("slots_unsent_dead_connection", 3L),
          Map.entry("slots_cap_delayed", 5L),
          Map.entry("attempted", 90L),
          Map.entry("accepted", 61L),
          Map.entry("rejected", 19L),
          Map.entry("notices", 4L),
          Map.entry("unacknowledged", 10L),
          Map.entry("unknown_ok_ids", 2L),
          Map.entry("duplicate_oks", 6L),
          Map.entry("auth_challenges", 8L),
          Map.entry("accepted_in_window", 55L),
          Map.entry("warmup_slots_sent", 11L),
          Map.entry("accepted_in_window_first_half", 30L),
          Map.entry("accepted_in_window_second_half", 25L),
          Map.entry("accepted_in_window_own_slots", 41L),
          Map.entry("window_slots_outstanding_at_end", 9L),
          Map.entry("outstanding_at_window_start", 12L),
          Map.entry("outstanding_at_window_mid", 14L),
          Map.entry("outstanding_at_window_end", 13L),
          Map.entry("rejected_in_window_first_half", 7L),
          Map.entry("rejected_in_window_second_half", 5L));

  /**
   * The first part kept its schedule too poorly (the sum is bound, and says which part was) and has
   * no NOTICE text; the second has no transport error text. The sum takes each text from the part
   * that has one.
   */
  static final GeneratorReport.Result A = part(1, "a", "a late", null, "write: a");

  static final GeneratorReport.Result B = part(3, "b", null, "notice b", null);

  static GeneratorReport.Result part(
      long factor, String name, String boundReason, String firstNotice, String firstError) {
    Map<String, Object> f = new HashMap<>();
    COUNTS.forEach((field, count) -> f.put(field, factor * count));
    long inWindow = factor * COUNTS.get("accepted_in_window");
    // Not a multiple of the factor: the parts' in-window over offered ratios must differ too.
    double offeredPerS = 20.0 + 15.0 * factor;
    f.put("offered_per_s", offeredPerS);
    f.put(
        "rejected_by_prefix", Map.of("invalid", 9L * factor, "rate-limited-" + name, 10L * factor));
    f.put("first_rejection", "invalid: " + name);
    f.put("first_notice", firstNotice);
    f.put("transport_errors", Map.of("write", factor, "connect-" + name, 2L));
    f.put("first_transport_error", firstError);
    f.put("accepted_in_window_per_s", inWindow / DURATION_S);
    f.put("accepted_in_window_over_offered", inWindow / (offeredPerS * DURATION_S));
    f.put("send_lag", LatencySummary.of(us(1_000 * factor, 2_000)));
    f.put("service", LatencySummary.of(us(3_000 * factor)));
    f.put("scheduled", LatencySummary.of(us(4_000 * factor, 5)));
    f.put("generator_bound", boundReason != null);
    f.put("generator_bound_reason", boundReason);
    f.put("silence_at_window_end_s", 0.5 * factor);
    return Results.of(f);
  }

  static GeneratorReport.Result sum(GeneratorReport.Result a, GeneratorReport.Result b) {
    return GeneratorReport.Result.sum(
        List.of(a, b),
        List.of("first", "second"),
        OFFERED_PER_S,
        DURATION_S,
        LatencySummary::merge);
  }

  /** Asserts that {@code sum} adds A and B the way a result adds, component by component. */
  static void assertSumsEveryComponent(BinaryOperator<GeneratorReport.Result> sum)
      throws ReflectiveOperationException {
    GeneratorReport.Result s = sum.apply(A, B);
    for (RecordComponent c : GeneratorReport.Result.class.getRecordComponents()) {
      Object a = c.getAccessor().invoke(A);
      Object b = c.getAccessor().invoke(B);
      assertThat(a).as("fixture's %s differs between the parts", c.getName()).isNotEqualTo(b);
      assertThat(c.getAccessor().invoke(s)).as(c.getName()).isEqualTo(expected(c, a, b));
    }
  }

  private static Object expected(RecordComponent c, Object a, Object b) {
    long inWindow = A.acceptedInWindow() + B.acceptedInWindow();
    return switch (c.getName()) {
      case "offeredPerS" -> OFFERED_PER_S;
      case "acceptedInWindowPerS" -> inWindow / DURATION_S;
      case "acceptedInWindowOverOffered" -> inWindow / (OFFERED_PER_S * DURATION_S);
      case "generatorBoundReason" -> "first: " + a;
      // Every part shares the window: the relay's last answer to any of them ends the silence.
      case "silenceAtWindowEndS" -> Math.min((Double) a, (Double) b);
      default -> byType(c, a, b);
    };
  }

  @SuppressWarnings("unchecked")
  private static Object byType(RecordComponent c, Object a, Object b) {
    Class<?> type = c.getType();
    if (type == long.class) {
      return (Long) a + (Long) b;
    }
    if (type == Long.class) {
      return a == null || b == null ? null : (Long) a + (Long) b;
    }
    if (type == boolean.class) {
      return (Boolean) a || (Boolean) b;
    }
    if (type == String.class) {
      return a != null ? a : b;
    }
    if (type == Map.class) {
      Map<String, Long> m = new TreeMap<>((Map<String, Long>) a);
      ((Map<String, Long>) b).forEach((k, v) -> m.merge(k, v, Long::sum));
      return m;
    }
    if (type == LatencySummary.class) {
      return LatencySummary.merge(List.of((LatencySummary) a, (LatencySummary) b));
    }
    throw new AssertionError("no rule for how " + c.getName() + " adds up: write one here");
  }

  @Test
  void theSumAddsEveryComponent() throws ReflectiveOperationException {
    assertSumsEveryComponent(ResultSumTest::sum);
  }

  @Test
  void aSumThatDropsACountFails() {
    // The mutant forgets the second part's duplicate OKs.
    BinaryOperator<GeneratorReport.Result> mutant =
        (a, b) -> Results.with(sum(a, b), Map.of("duplicate_oks", a.duplicateOks()));
    assertThatThrownBy(() -> assertSumsEveryComponent(mutant))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("duplicateOks");
  }

  @Test
  void aSumThatDropsAFirstMessageFails() {
    // The mutant keeps only the first part's NOTICE text, which it does not have.
    BinaryOperator<GeneratorReport.Result> mutant =
        (a, b) -> {
          Map<String, Object> f = new HashMap<>();
          f.put("first_notice", a.firstNotice());
          return Results.with(sum(a, b), f);
        };
    assertThatThrownBy(() -> assertSumsEveryComponent(mutant))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("firstNotice");
  }

  @Test
  void aSumThatDropsALatencyFails() {
    BinaryOperator<GeneratorReport.Result> mutant =
        (a, b) -> Results.with(sum(a, b), Map.of("service", a.service()));
    assertThatThrownBy(() -> assertSumsEveryComponent(mutant))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("service");
  }

  @Test
  void aSumOfAPartWithoutTheWindowHalvesHasNone() {
    // A report written before the halves were recorded: the sum cannot know them, so it says so.
    GeneratorReport.Result old = Results.with(B, withoutWindowHalves());
    GeneratorReport.Result s = sum(A, old);
    assertThat(s.acceptedInWindowFirstHalf()).isNull();
    assertThat(s.outstandingAtWindowEnd()).isNull();
    assertThat(s.acceptedInWindow()).isEqualTo(A.acceptedInWindow() + B.acceptedInWindow());
  }

  @Test
  void halvesThatDoNotAddUpToTheWindowAreRefused() {
    assertThatThrownBy(() -> Results.with(A, Map.of("accepted_in_window_first_half", 31L)))
        .hasMessageContaining(
            "accepted_in_window_first_half + accepted_in_window_second_half must equal"
                + " accepted_in_window, got 31 + 25 != 55");
    Map<String, Object> some = new HashMap<>();
    some.put("outstanding_at_window_mid", null);
    assertThatThrownBy(() -> Results.with(A, some)).hasMessageContaining("all be null");
  }

  static Map<String, Object> withoutWindowHalves() {
    Map<String, Object> f = new HashMap<>();
    for (String k :
        List.of(
            "accepted_in_window_first_half",
            "accepted_in_window_second_half",
            "accepted_in_window_own_slots",
            "window_slots_outstanding_at_end",
            "outstanding_at_window_start",
            "outstanding_at_window_mid",
            "outstanding_at_window_end")) {
      f.put(k, null);
    }
    return f;
  }

  @Test
  void theSumOfNothingIsNothingHappened() {
    GeneratorReport.Result none = Results.nothing();
    assertThat(none.slotsPlanned()).isZero();
    assertThat(none.rejectedByPrefix()).isEmpty();
    assertThat(none.firstRejection()).isNull();
    assertThat(none.scheduled().count()).isZero();
    assertThat(none.generatorBound()).isFalse();
  }
}
