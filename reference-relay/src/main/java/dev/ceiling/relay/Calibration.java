package dev.ceiling.relay;

import dev.ceiling.core.json.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The known answer: times runs of the same six exchanges against the scratch table {@code
 * audit_calibration} (never the audit log) and predicts the audit worker's ceiling as {@code 1 / (6
 * x (delay + exchange cost))}, for two exchange costs that bound what the worker pays.
 *
 * <p>Why two: the cost of an exchange depends on whether the database server's thread (and, on a
 * virtual machine, its virtual CPU) was asleep. Timed back to back with no delay ("hot"), it never
 * is; timed with the injected delay between exchanges ("cold", as the worker runs them on a machine
 * with nothing else to do), it always is, and each exchange pays a wake-up of tens to hundreds of
 * µs. A worker in a sweep pays something in between, depending on what else keeps the CPUs awake.
 * Timed hot only, the prediction was 40.8/s where a CI machine's worker measured 35.2/s (4 ms
 * delay, load 0.48 per CPU); timed cold only, it was 217.9/s where a busy sweep measured 251/s (0.5
 * ms). With no delay the two are one loop.
 *
 * @param runs runs timed cold (with the delay)
 * @param exchangeCostSeconds mean cost of one exchange beyond its injected delay, timed cold,
 *     seconds: the prediction {@link #predictedCeilingPerSecond()} uses it
 * @param hotExchangeCostSeconds mean cost of one exchange timed back to back, seconds: {@link
 *     #predictedHotCeilingPerSecond()} uses it
 * @param stepCostSeconds mean duration of each of the six steps (lock, begin, head, insert, commit,
 *     unlock) timed cold, including its delay, seconds
 * @param delaySeconds the injected delay, seconds
 */
public record Calibration(
    int runs,
    double exchangeCostSeconds,
    double hotExchangeCostSeconds,
    List<Double> stepCostSeconds,
    double delaySeconds) {

  private static final String[] STEPS = {"lock", "begin", "head", "insert", "commit", "unlock"};

  public Calibration {
    if (runs < 1) {
      throw new IllegalArgumentException("runs must be >= 1, got " + runs);
    }
    if (!(exchangeCostSeconds > 0)) {
      throw new IllegalArgumentException(
          "exchangeCostSeconds must be > 0 s, got " + exchangeCostSeconds);
    }
    if (!(hotExchangeCostSeconds > 0)) {
      throw new IllegalArgumentException(
          "hotExchangeCostSeconds must be > 0 s, got " + hotExchangeCostSeconds);
    }
    if (stepCostSeconds == null || stepCostSeconds.size() != AuditWriter.EXCHANGES) {
      throw new IllegalArgumentException(
          "stepCostSeconds must have 6 entries, got " + stepCostSeconds);
    }
    stepCostSeconds = List.copyOf(stepCostSeconds);
    if (!(delaySeconds >= 0)) {
      throw new IllegalArgumentException("delaySeconds must be >= 0 s, got " + delaySeconds);
    }
  }

  /** 1 / (6 x (delay + cold exchange cost)), entries per second. */
  public double predictedCeilingPerSecond() {
    return 1.0 / (AuditWriter.EXCHANGES * (delaySeconds + exchangeCostSeconds));
  }

  /** 1 / (6 x (delay + hot exchange cost)), entries per second. */
  public double predictedHotCeilingPerSecond() {
    return 1.0 / (AuditWriter.EXCHANGES * (delaySeconds + hotExchangeCostSeconds));
  }

  /** The hot per-exchange cost in ms, formatted for the ready line (3 decimals, Locale.ROOT). */
  public String hotExchangeCostMillisText() {
    return String.format(Locale.ROOT, "%.3f", hotExchangeCostSeconds * 1e3);
  }

  /** The hot prediction formatted for the ready line (1 decimal, Locale.ROOT). */
  public String predictedHotCeilingText() {
    return String.format(Locale.ROOT, "%.1f", predictedHotCeilingPerSecond());
  }

  /** The per-exchange cost in ms, formatted for the ready line (3 decimals, Locale.ROOT). */
  public String exchangeCostMillisText() {
    return String.format(Locale.ROOT, "%.3f", exchangeCostSeconds * 1e3);
  }

  /** The predicted ceiling formatted for the ready line (1 decimal, Locale.ROOT). */
  public String predictedCeilingText() {
    return String.format(Locale.ROOT, "%.1f", predictedCeilingPerSecond());
  }

  /**
   * A small JSON document for GET /calibrate, on one line. Keys are the READY line's where they
   * mean the same; times in ms to 4 decimals, ceilings per second to 2.
   */
  public String toJson() {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("runs", runs);
    doc.put("exchange_cost_ms", rounded(exchangeCostSeconds * 1e3, 4));
    doc.put("exchange_cost_hot_ms", rounded(hotExchangeCostSeconds * 1e3, 4));
    doc.put("delay_ms", rounded(delaySeconds * 1e3, 4));
    doc.put("predicted_worker_ceiling_per_s", rounded(predictedCeilingPerSecond(), 2));
    doc.put("predicted_worker_ceiling_hot_per_s", rounded(predictedHotCeilingPerSecond(), 2));
    Map<String, Object> steps = new LinkedHashMap<>();
    for (int i = 0; i < STEPS.length; i++) {
      steps.put(STEPS[i], rounded(stepCostSeconds.get(i) * 1e3, 4));
    }
    doc.put("step_cost_ms", steps);
    return Json.writeLine(doc);
  }

  private static BigDecimal rounded(double value, int decimals) {
    return BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP);
  }

  /**
   * Longest timed loop, ns. With a large delay, {@code runs} runs would hold the relay's start for
   * runs x 6 x delay (200 runs at 40 ms: 48 s); the loop stops after this long, having timed at
   * least {@link #MIN_TIMED_RUNS} runs, and the result says how many it timed.
   */
  static final long MAX_TIMED_NANOS = 3_000_000_000L;

  /** Fewest runs timed, whatever the delay. */
  static final int MIN_TIMED_RUNS = 20;

  /**
   * Runs the calibration: untimed runs without the delay until the JIT has settled ({@link
   * WarmUp}), then {@code runs} timed runs back to back (hot) and, with a delay, up to {@code runs}
   * timed runs with it (cold); the scratch table is emptied afterwards.
   */
  static Calibration run(AuditDatabase db, int runs, double delayMillis) throws SQLException {
    try (AuditWriter w =
        new AuditWriter(
            db, "audit_calibration", AuditDatabase.CALIBRATION_LOCK_ID, "calibration")) {
      w.truncate("audit_calibration");
      AuditEntry e =
          new AuditEntry("calibration", "0".repeat(64), "0".repeat(64), 1, 1_700_000_000L);
      // Warm, not cold: the timed loop measures compiled code, as the worker runs in a sweep.
      WarmUp.until(() -> w.write(e, 0, null, false), System::nanoTime);
      w.truncate("audit_calibration");
      long delayNanos = Math.round(delayMillis * 1e6);
      long[] hotSteps = new long[AuditWriter.EXCHANGES];
      Timed hot = timed(w, e, 0, runs, hotSteps);
      w.truncate("audit_calibration");
      long[] coldSteps = new long[AuditWriter.EXCHANGES];
      Timed cold = delayNanos == 0 ? hot : timed(w, e, delayNanos, runs, coldSteps);
      w.truncate("audit_calibration");
      long[] steps = delayNanos == 0 ? hotSteps : coldSteps;
      List<Double> stepSeconds = new ArrayList<>();
      for (long s : steps) {
        stepSeconds.add(s / 1e9 / cold.runs());
      }
      return new Calibration(
          cold.runs(),
          cold.exchangeCostSeconds(delayNanos),
          hot.exchangeCostSeconds(0),
          stepSeconds,
          delayNanos / 1e9);
    }
  }

  /** A timed loop: how many runs, how long in all. */
  private record Timed(int runs, long totalNanos) {
    /** Mean time per exchange beyond the delay; a coarse clock cannot make it zero or less. */
    double exchangeCostSeconds(long delayNanos) {
      double perExchange = totalNanos / 1e9 / runs / AuditWriter.EXCHANGES - delayNanos / 1e9;
      return Math.max(perExchange, 1e-9);
    }
  }

  private static Timed timed(AuditWriter w, AuditEntry e, long delayNanos, int runs, long[] steps)
      throws SQLException {
    long t0 = System.nanoTime();
    int done = 0;
    while (done < runs && (done < MIN_TIMED_RUNS || System.nanoTime() - t0 < MAX_TIMED_NANOS)) {
      w.write(e, delayNanos, steps, false);
      done++;
    }
    return new Timed(done, System.nanoTime() - t0);
  }

  @Override
  public String toString() {
    return toJson();
  }
}
