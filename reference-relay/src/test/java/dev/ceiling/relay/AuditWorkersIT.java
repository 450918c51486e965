package dev.ceiling.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * More audit workers and a lock, measured on the real relay and its H2 database: two workers with
 * no lock drain about twice what one does, and a global lock holds two workers to one lease's
 * predicted ceiling. Each relay's queue is flooded and drained for a 2 s window at 3 ms per
 * exchange, where a worker writes about 50 entries per second. Relays measured one after the other
 * on a busy machine pay different exchange times (at load 28 on two cores, 3 ms exchanges took 4.7
 * ms in one relay's window and 3.3 ms in the next), so the comparisons between relays use {@link
 * AuditDrain#writesInFlight()}, the drain in units of the write time measured in the same window;
 * the comparison with the calibration's prediction, taken at the relay's start, gets wider bounds.
 */
class AuditWorkersIT {
  static final Duration WINDOW = Duration.ofSeconds(2);
  static final String DELAY_MS = "3";

  static AuditDrain oneWorker;
  static AuditDrain twoWorkersNoLock;
  static AuditDrain twoWorkersGlobalLock;

  @BeforeAll
  static void measure() throws Exception {
    oneWorker = AuditDrain.measure(WINDOW, "--audit-exchange-delay-ms", DELAY_MS);
    twoWorkersNoLock = twoWorkers("none");
    twoWorkersGlobalLock = twoWorkers("global");
    System.out.printf(
        "AuditWorkersIT: one worker %.1f/s (predicted %.1f, %.2f in flight), two without a lock"
            + " %.1f/s (predicted %.1f, %.2f in flight), two under a global lock %.1f/s (lock"
            + " predicted %.1f, %.2f in flight)%n",
        oneWorker.perSecond(),
        oneWorker.calibration().predictedCeilingPerSecond(),
        oneWorker.writesInFlight(),
        twoWorkersNoLock.perSecond(),
        twoWorkersNoLock.calibration().predictedWorkersCeilingPerSecond(),
        twoWorkersNoLock.writesInFlight(),
        twoWorkersGlobalLock.perSecond(),
        twoWorkersGlobalLock.calibration().predictedLockCeilingPerSecond().orElseThrow(),
        twoWorkersGlobalLock.writesInFlight());
  }

  static AuditDrain twoWorkers(String lock) throws Exception {
    return AuditDrain.measure(
        WINDOW,
        "--audit-exchange-delay-ms",
        DELAY_MS,
        "--audit-workers",
        "2",
        "--audit-lock",
        lock);
  }

  /** About twice: within [1.6, 2.4] times what one worker drained, per write time. */
  static void drainsAboutTwiceOneWorker(AuditDrain two) {
    assertThat(two.writesInFlight() / oneWorker.writesInFlight())
        .as("two workers' drain over one worker's, per write time")
        .isBetween(1.6, 2.4);
  }

  /**
   * Held to one lease: one write in flight at a time (within [0.6, 1.3]), and within a factor of
   * three of the lease's ceiling as the calibration predicted it at the relay's start. That factor
   * is wide because the prediction is timed before the window, and on a busy machine the two paid
   * different exchange times: at load 23 on two cores one worker drained 43.0/s against a
   * prediction of 26.1/s. The first check carries the claim; the second that the prediction is the
   * lease's, in entries per second.
   */
  static void heldToOneLease(AuditDrain drain, double leaseCeilingPerSecond) {
    assertThat(drain.writesInFlight()).as("writes in flight").isBetween(0.6, 1.3);
    assertThat(drain.perSecond() / leaseCeilingPerSecond)
        .as("drain over one lease's predicted ceiling")
        .isBetween(1 / 3.0, 3.0);
  }

  @Test
  void twoWorkersWithoutALockDrainAboutTwiceWhatOneDoes() {
    drainsAboutTwiceOneWorker(twoWorkersNoLock);
    // The calibration's prediction for two workers agrees, within the same factor of three.
    assertThat(
            twoWorkersNoLock.perSecond()
                / twoWorkersNoLock.calibration().predictedWorkersCeilingPerSecond())
        .isBetween(1 / 3.0, 3.0);
    assertThat(twoWorkersNoLock.calibration().predictedLockCeilingPerSecond()).isEmpty();
  }

  /** Partner: the same two workers under a global lock do not drain twice. */
  @Test
  void mutantTwoWorkersUnderAGlobalLockAreNotTwiceOneWorker() {
    assertThatThrownBy(() -> drainsAboutTwiceOneWorker(twoWorkersGlobalLock))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void aGlobalLockHoldsTwoWorkersToOneLeasesPredictedCeiling() {
    Calibration c = twoWorkersGlobalLock.calibration();
    double lease = c.predictedLockCeilingPerSecond().orElseThrow();
    heldToOneLease(twoWorkersGlobalLock, lease);
    // Every exchange of the write is held: one lease's ceiling is one worker's.
    assertThat(lease).isEqualTo(c.predictedCeilingPerSecond());
    assertThat(c.predictedWorkersCeilingPerSecond()).isEqualTo(2 * c.predictedCeilingPerSecond());
  }

  /** Partner: with the lock disabled, the same two workers pass one lease's ceiling. */
  @Test
  void mutantWithoutTheLockTwoWorkersPassOneLeasesCeiling() {
    double lease = twoWorkersNoLock.calibration().predictedCeilingPerSecond();
    assertThatThrownBy(() -> heldToOneLease(twoWorkersNoLock, lease))
        .isInstanceOf(AssertionError.class);
  }

  /**
   * Contended, a writer waits for the other's whole write (five exchanges of 3 ms and more);
   * uncontended, only the take's round trip. The bound between them is two delays.
   */
  @Test
  void theLockWaitMetricSeesTheContentionAndTheHeldTimeCoversTheWrite() {
    double twoDelays = 2 * Double.parseDouble(DELAY_MS) / 1e3;
    assertThat(twoWorkersGlobalLock.lockWaitMeanSeconds()).isGreaterThan(twoDelays);
    assertThat(twoWorkersNoLock.lockWaitMeanSeconds()).isLessThan(twoDelays);
    // Held from the take's answer to the give-back's: the five later exchanges, each with its
    // delay, and never longer than the entry's whole service time.
    for (AuditDrain d : new AuditDrain[] {oneWorker, twoWorkersNoLock, twoWorkersGlobalLock}) {
      assertThat(d.lockHeldMeanSeconds())
          .isGreaterThanOrEqualTo(5 * Double.parseDouble(DELAY_MS) / 1e3)
          .isLessThanOrEqualTo(d.serviceMeanSeconds());
    }
  }

  /**
   * The pool's busy time leaves out waits for a lease another writer holds: workers that write all
   * the time read about 1, two workers queued behind one lease about 1/2. Bounds are wide (a busy
   * machine stretches the gaps between entries); what they separate is 1 from 1/2.
   */
  @Test
  void thePoolIsBusyWhenItsWorkersWriteAndNotWhenTheyWaitForALease() {
    assertThat(oneWorker.poolBusyFraction()).as("one worker, no lock").isGreaterThan(0.85);
    assertThat(twoWorkersNoLock.poolBusyFraction()).as("two workers, no lock").isGreaterThan(0.85);
    assertThat(twoWorkersGlobalLock.poolBusyFraction())
        .as("two workers behind one lease")
        .isBetween(0.3, 0.75);
  }

  /**
   * Partner: the write time with the waits in it, per worker, reads the lock-bound pool as busy as
   * the free one; a masking check built on it would call the lock's ceiling the workers'.
   */
  @Test
  void mutantBusyTimeWithLeaseWaitsReadsTheLockBoundPoolAsBusy() {
    double naive = twoWorkersGlobalLock.perSecond() * twoWorkersGlobalLock.serviceMeanSeconds() / 2;
    assertThat(naive).as("write time per worker-second, waits included").isGreaterThan(0.85);
  }
}
