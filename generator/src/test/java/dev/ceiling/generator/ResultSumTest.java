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
   * Every count non-zero and different from the other part's, so a dropped one shows. Only the
   * first part kept its schedule too poorly: the sum is bound, and says which part was.
   */
  static final GeneratorReport.Result A =
      part(100, 90, 7, 3, 5, 61, 19, 4, 10, 2, 6, 8, 55, 11, "a late", us(1_000, 2_000));

  static final GeneratorReport.Result B =
      part(300, 280, 13, 7, 17, 201, 29, 14, 50, 12, 16, 18, 190, 21, null, us(9_000));

  static GeneratorReport.Result part(
      long planned,
      long sent,
      long late,
      long dead,
      long capDelayed,
      long accepted,
      long rejected,
      long notices,
      long unacknowledged,
      long unknownOkIds,
      long duplicateOks,
      long authChallenges,
      long inWindow,
      long warmup,
      String boundReason,
      org.HdrHistogram.Histogram latencyUs) {
    Map<String, Object> f = new HashMap<>();
    f.put("offered_per_s", planned / DURATION_S);
    f.put("slots_planned", planned);
    f.put("slots_sent", sent);
    f.put("slots_unsent_late", late);
    f.put("slots_unsent_dead_connection", dead);
    f.put("slots_cap_delayed", capDelayed);
    f.put("attempted", sent);
    f.put("accepted", accepted);
    f.put("rejected", rejected);
    f.put("rejected_by_prefix", Map.of("invalid", rejected - 1, "rate-limited" + planned, 1L));
    f.put("first_rejection", planned == 100 ? "invalid: a" : "invalid: b");
    f.put("notices", notices);
    // The first part has no NOTICE text and no transport error text: the sum takes the second's.
    f.put("first_notice", planned == 100 ? null : "notice b");
    f.put("unacknowledged", unacknowledged);
    f.put("unknown_ok_ids", unknownOkIds);
    f.put("duplicate_oks", duplicateOks);
    f.put("auth_challenges", authChallenges);
    f.put("transport_errors", Map.of("write", planned, "connect" + planned, 2L));
    f.put("first_transport_error", planned == 100 ? "write: a" : "write: b");
    f.put("accepted_in_window", inWindow);
    f.put("warmup_slots_sent", warmup);
    f.put("accepted_in_window_per_s", inWindow / DURATION_S);
    f.put("accepted_in_window_over_offered", inWindow / (double) planned);
    f.put("send_lag", LatencySummary.of(latencyUs));
    f.put("service", LatencySummary.of(us(latencyUs.getMaxValue() + 1)));
    f.put("scheduled", LatencySummary.of(us(latencyUs.getMaxValue() + 2, 3)));
    f.put("generator_bound", boundReason != null);
    f.put("generator_bound_reason", boundReason);
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
      default -> byType(c, a, b);
    };
  }

  @SuppressWarnings("unchecked")
  private static Object byType(RecordComponent c, Object a, Object b) {
    Class<?> type = c.getType();
    if (type == long.class) {
      return (Long) a + (Long) b;
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
  void theSumOfNothingIsNothingHappened() {
    GeneratorReport.Result none = Results.nothing();
    assertThat(none.slotsPlanned()).isZero();
    assertThat(none.rejectedByPrefix()).isEmpty();
    assertThat(none.firstRejection()).isNull();
    assertThat(none.scheduled().count()).isZero();
    assertThat(none.generatorBound()).isFalse();
  }
}
