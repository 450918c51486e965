package dev.ceiling.relay;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The known answer: times N runs of the same six exchanges against the scratch table {@code
 * audit_calibration} (never the audit log) with no injected delay, and predicts the audit worker's
 * ceiling for a given delay as {@code 1 / (6 x (delay + exchange cost))}.
 *
 * @param runs runs timed
 * @param exchangeCostSeconds mean cost of one exchange, seconds
 * @param stepCostSeconds mean cost of each of the six steps (lock, begin, head, insert, commit,
 *     unlock), seconds
 * @param delaySeconds the injected delay the prediction uses, seconds
 */
public record Calibration(
    int runs, double exchangeCostSeconds, List<Double> stepCostSeconds, double delaySeconds) {

  private static final String[] STEPS = {"lock", "begin", "head", "insert", "commit", "unlock"};

  public Calibration {
    if (runs < 1) {
      throw new IllegalArgumentException("runs must be >= 1, got " + runs);
    }
    if (!(exchangeCostSeconds > 0)) {
      throw new IllegalArgumentException(
          "exchangeCostSeconds must be > 0 s, got " + exchangeCostSeconds);
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

  /** 1 / (6 x (delay + exchange cost)), entries per second. */
  public double predictedCeilingPerSecond() {
    return 1.0 / (AuditWriter.EXCHANGES * (delaySeconds + exchangeCostSeconds));
  }

  /** The per-exchange cost in ms, formatted for the ready line (3 decimals, Locale.ROOT). */
  public String exchangeCostMillisText() {
    return String.format(Locale.ROOT, "%.3f", exchangeCostSeconds * 1e3);
  }

  /** The predicted ceiling formatted for the ready line (1 decimal, Locale.ROOT). */
  public String predictedCeilingText() {
    return String.format(Locale.ROOT, "%.1f", predictedCeilingPerSecond());
  }

  /** A small JSON document for GET /calibrate. */
  public String toJson() {
    StringBuilder b = new StringBuilder("{");
    b.append(String.format(Locale.ROOT, "\"runs\":%d,", runs));
    b.append(String.format(Locale.ROOT, "\"exchange_cost_ms\":%.4f,", exchangeCostSeconds * 1e3));
    b.append(String.format(Locale.ROOT, "\"delay_ms\":%.4f,", delaySeconds * 1e3));
    b.append(
        String.format(
            Locale.ROOT, "\"predicted_worker_ceiling_per_s\":%.2f,", predictedCeilingPerSecond()));
    b.append("\"step_cost_ms\":{");
    for (int i = 0; i < STEPS.length; i++) {
      b.append(
          String.format(
              Locale.ROOT,
              "%s\"%s\":%.4f",
              i == 0 ? "" : ",",
              STEPS[i],
              stepCostSeconds.get(i) * 1e3));
    }
    return b.append("}}").toString();
  }

  /**
   * Runs the calibration: untimed runs until the JIT has settled ({@link WarmUp}), then {@code
   * runs} timed runs of the six exchanges on the scratch table, which is emptied afterwards.
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
      long[] steps = new long[AuditWriter.EXCHANGES];
      long t0 = System.nanoTime();
      for (int i = 0; i < runs; i++) {
        w.write(e, 0, steps, false);
      }
      long total = System.nanoTime() - t0;
      w.truncate("audit_calibration");
      List<Double> stepSeconds = new ArrayList<>();
      for (long s : steps) {
        stepSeconds.add(s / 1e9 / runs);
      }
      double perExchange = total / 1e9 / runs / AuditWriter.EXCHANGES;
      return new Calibration(runs, perExchange, stepSeconds, delayMillis / 1e3);
    }
  }

  @Override
  public String toString() {
    return toJson();
  }
}
