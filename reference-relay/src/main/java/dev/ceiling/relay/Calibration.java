package dev.ceiling.relay;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.ReadyLine;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The known answer: times runs of the same audit write the workers make ({@code exchanges}
 * sequential exchanges) against the scratch table {@code audit_calibration} (never the audit log)
 * and predicts one audit worker's ceiling as {@code 1 / (exchanges x (delay + exchange cost))}, for
 * two exchange costs that bound what the worker pays. From the same cost it predicts the ceiling of
 * all the workers together, {@code workers / (exchanges x (delay + cost))}, and, with a lock, each
 * lease's, {@code 1 / (held exchanges x (delay + cost))}: a contended lease passes one entry per
 * write, every exchange of which counts as held ({@link AuditWriter}).
 *
 * <p>Why two costs: the cost of an exchange depends on whether the database server's thread (and,
 * on a virtual machine, its virtual CPU) was asleep. Timed back to back with no delay ("hot"), it
 * never is; timed with the injected delay between exchanges ("cold", as the worker runs them on a
 * machine with nothing else to do), it always is, and each exchange pays a wake-up of tens to
 * hundreds of µs. A worker in a sweep pays something in between, depending on what else keeps the
 * CPUs awake. Timed hot only, the prediction was 40.8/s where a CI machine's worker measured 35.2/s
 * (4 ms delay, load 0.48 per CPU); timed cold only, it was 217.9/s where a busy sweep measured
 * 251/s (0.5 ms). With no delay the two are one loop.
 *
 * @param runs runs timed cold (with the delay)
 * @param exchangeCostSeconds mean cost of one exchange beyond its injected delay, timed cold,
 *     seconds: the prediction {@link #predictedCeilingPerSecond()} uses it
 * @param hotExchangeCostSeconds mean cost of one exchange timed back to back, seconds: {@link
 *     #predictedHotCeilingPerSecond()} uses it
 * @param stepCostSeconds mean duration of each step ({@link AuditWriter#stepNames}) timed cold,
 *     including its delay, seconds
 * @param delaySeconds the injected delay, seconds
 * @param shape the audit path the predictions are for: exchanges, workers, lock
 */
public record Calibration(
    int runs,
    double exchangeCostSeconds,
    double hotExchangeCostSeconds,
    List<Double> stepCostSeconds,
    double delaySeconds,
    Shape shape) {

  /**
   * The audit path a calibration predicts for.
   *
   * @param exchanges sequential exchanges per entry, >= {@link AuditWriter#MIN_EXCHANGES}
   * @param workers audit workers, >= 1
   * @param lock the lock mode
   */
  public record Shape(int exchanges, int workers, AuditLockMode lock) {
    /** One worker, no lock, six exchanges: the relay's defaults. */
    public static final Shape DEFAULT = new Shape(AuditWriter.EXCHANGES, 1, AuditLockMode.NONE);

    public Shape {
      if (exchanges < AuditWriter.MIN_EXCHANGES) {
        throw new IllegalArgumentException(
            "exchanges must be >= " + AuditWriter.MIN_EXCHANGES + ", got " + exchanges);
      }
      if (workers < 1) {
        throw new IllegalArgumentException("workers must be >= 1, got " + workers);
      }
      if (lock == null) {
        throw new IllegalArgumentException("lock must not be null");
      }
    }

    /** The shape a relay with {@code config} runs. */
    static Shape of(ReferenceRelayConfig config) {
      return new Shape(config.auditExchanges(), config.auditWorkers(), config.auditLock());
    }
  }

  /** A calibration of the default path (six exchanges, one worker, no lock). */
  public Calibration(
      int runs,
      double exchangeCostSeconds,
      double hotExchangeCostSeconds,
      List<Double> stepCostSeconds,
      double delaySeconds) {
    this(
        runs,
        exchangeCostSeconds,
        hotExchangeCostSeconds,
        stepCostSeconds,
        delaySeconds,
        Shape.DEFAULT);
  }

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
    if (shape == null) {
      throw new IllegalArgumentException("shape must not be null");
    }
    if (stepCostSeconds == null || stepCostSeconds.size() != shape.exchanges()) {
      throw new IllegalArgumentException(
          "stepCostSeconds must have " + shape.exchanges() + " entries, got " + stepCostSeconds);
    }
    stepCostSeconds = List.copyOf(stepCostSeconds);
    if (!(delaySeconds >= 0)) {
      throw new IllegalArgumentException("delaySeconds must be >= 0 s, got " + delaySeconds);
    }
  }

  /** One worker's ceiling: 1 / (exchanges x (delay + cold exchange cost)), entries per second. */
  public double predictedCeilingPerSecond() {
    return 1.0 / (shape.exchanges() * (delaySeconds + exchangeCostSeconds));
  }

  /** One worker's ceiling timed hot: 1 / (exchanges x (delay + hot cost)), entries per second. */
  public double predictedHotCeilingPerSecond() {
    return 1.0 / (shape.exchanges() * (delaySeconds + hotExchangeCostSeconds));
  }

  /** All workers together, no lock binding: workers x one worker's ceiling, entries per second. */
  public double predictedWorkersCeilingPerSecond() {
    return shape.workers() * predictedCeilingPerSecond();
  }

  /**
   * One lease's ceiling, 1 / (held exchanges x (delay + cold cost)) with every exchange of the
   * write held, entries per second; empty without a lock (each worker's lease is its own).
   */
  public OptionalDouble predictedLockCeilingPerSecond() {
    return shape.lock() == AuditLockMode.NONE
        ? OptionalDouble.empty()
        : OptionalDouble.of(1.0 / (shape.exchanges() * (delaySeconds + exchangeCostSeconds)));
  }

  /** The workers' prediction formatted for the ready line (1 decimal, Locale.ROOT). */
  public String predictedWorkersCeilingText() {
    return String.format(Locale.ROOT, "%.1f", predictedWorkersCeilingPerSecond());
  }

  /** The lease's prediction for the ready line (1 decimal, Locale.ROOT), or NA without a lock. */
  public String predictedLockCeilingText() {
    OptionalDouble c = predictedLockCeilingPerSecond();
    return c.isPresent()
        ? String.format(Locale.ROOT, "%.1f", c.getAsDouble())
        : ReadyLine.NOT_APPLICABLE;
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
    doc.put("audit_exchanges", shape.exchanges());
    doc.put("audit_workers", shape.workers());
    doc.put("audit_lock", shape.lock().flagValue());
    doc.put("predicted_workers_ceiling_per_s", rounded(predictedWorkersCeilingPerSecond(), 2));
    OptionalDouble lock = predictedLockCeilingPerSecond();
    doc.put(
        "predicted_lock_ceiling_per_s", lock.isPresent() ? rounded(lock.getAsDouble(), 2) : null);
    Map<String, Object> steps = new LinkedHashMap<>();
    List<String> names = AuditWriter.stepNames(shape.exchanges());
    for (int i = 0; i < names.size(); i++) {
      steps.put(names.get(i), rounded(stepCostSeconds.get(i) * 1e3, 4));
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
  static Calibration run(AuditDatabase db, int runs, double delayMillis, Shape shape)
      throws SQLException {
    AuditLocks.Chain scratch =
        new AuditLocks.Chain(AuditDatabase.CALIBRATION_LOCK_ID, "audit_calibration");
    int exchanges = shape.exchanges();
    try (AuditWriter w =
        new AuditWriter(db, "calibration", exchanges, new LeaseBoard(), late -> {})) {
      w.truncate("audit_calibration");
      AuditEntry e =
          new AuditEntry("calibration", "0".repeat(64), "0".repeat(64), 1, 1_700_000_000L);
      // Warm, not cold: the timed loop measures compiled code, as the worker runs in a sweep.
      WarmUp.until(() -> w.write(scratch, e, 0, null, false), System::nanoTime);
      w.truncate("audit_calibration");
      long delayNanos = Math.round(delayMillis * 1e6);
      long[] hotSteps = new long[exchanges];
      Timed hot = timed(w, scratch, e, 0, runs, hotSteps);
      w.truncate("audit_calibration");
      long[] coldSteps = new long[exchanges];
      Timed cold = delayNanos == 0 ? hot : timed(w, scratch, e, delayNanos, runs, coldSteps);
      w.truncate("audit_calibration");
      long[] steps = delayNanos == 0 ? hotSteps : coldSteps;
      List<Double> stepSeconds = new ArrayList<>();
      for (long s : steps) {
        stepSeconds.add(s / 1e9 / cold.runs());
      }
      return new Calibration(
          cold.runs(),
          cold.exchangeCostSeconds(delayNanos, exchanges),
          hot.exchangeCostSeconds(0, exchanges),
          stepSeconds,
          delayNanos / 1e9,
          shape);
    }
  }

  /** A timed loop: how many runs, how long in all. */
  private record Timed(int runs, long totalNanos) {
    /** Mean time per exchange beyond the delay; a coarse clock cannot make it zero or less. */
    double exchangeCostSeconds(long delayNanos, int exchanges) {
      double perExchange = totalNanos / 1e9 / runs / exchanges - delayNanos / 1e9;
      return Math.max(perExchange, 1e-9);
    }
  }

  private static Timed timed(
      AuditWriter w, AuditLocks.Chain chain, AuditEntry e, long delayNanos, int runs, long[] steps)
      throws SQLException {
    long t0 = System.nanoTime();
    int done = 0;
    while (done < runs && (done < MIN_TIMED_RUNS || System.nanoTime() - t0 < MAX_TIMED_NANOS)) {
      w.write(chain, e, delayNanos, steps, false);
      done++;
    }
    return new Timed(done, System.nanoTime() - t0);
  }

  @Override
  public String toString() {
    return toJson();
  }
}
