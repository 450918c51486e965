package dev.ceiling.experiment;

import dev.ceiling.core.model.ReadyLine;
import dev.ceiling.core.model.RigDescriptor;
import java.util.OptionalDouble;

/**
 * The relay's own predictions of its ceilings, as its READY line reports them in relay_info. Every
 * round that takes its rates from the relay's calibration reads them here, so that the keys and
 * their rule (a finite number above 0, else none) are written once.
 */
public final class Predictions {
  private Predictions() {}

  /** The relay_info key under which the reference relay reports its calibrated ceiling. */
  public static final String WORKER_CEILING_KEY = "predicted_worker_ceiling_per_s";

  /**
   * The relay_info key of the upper end of the relay's predicted range (the reference relay's
   * ceiling timed back to back); optional.
   */
  public static final String WORKER_CEILING_HOT_KEY = "predicted_worker_ceiling_hot_per_s";

  /** The relay_info key of the reference relay's prediction for all its workers together. */
  public static final String WORKERS_KEY = "predicted_workers_ceiling_per_s";

  /** The relay_info key of the reference relay's prediction for one lock. */
  public static final String LOCK_KEY = "predicted_lock_ceiling_per_s";

  /** A relay_info figure when it is a finite number above 0, else null. */
  static Double of(RigDescriptor rig, String key) {
    try {
      OptionalDouble v = new ReadyLine(rig.relayInfo()).number(key);
      return v.isPresent() && v.getAsDouble() > 0 ? v.getAsDouble() : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
