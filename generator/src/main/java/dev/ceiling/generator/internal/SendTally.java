package dev.ceiling.generator.internal;

import dev.ceiling.core.model.LatencySummary;
import org.HdrHistogram.Histogram;

/**
 * What one sender thread did with one target's measured slots. Confined to the sender thread until
 * it is joined; then the engine folds every sender's tally into one with {@link #addTo}.
 */
final class SendTally {
  final Histogram sendLagUs = LatencySummary.newHistogram();
  long sent;
  long unsentLate;
  long unsentDead;
  long capDelayed;

  /** Measured slots never due because the run was stopped first: not planned after all. */
  long notDue;

  /** Adds this tally into {@code total}. */
  void addTo(SendTally total) {
    total.sendLagUs.add(sendLagUs);
    total.sent += sent;
    total.unsentLate += unsentLate;
    total.unsentDead += unsentDead;
    total.capDelayed += capDelayed;
    total.notDue += notDue;
  }
}
