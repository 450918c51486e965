package dev.ceiling.relay;

import static dev.ceiling.relay.Fixtures.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.nostr.Keys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One real measurement of how fast a reference relay's audit workers drain a full queue: flood it
 * with signed events through the WebSocket, then count the entries written over a window while the
 * queue never runs dry. The rate is far below anything the relay's front end or this client could
 * limit (tens to a few hundred entries per second), so only the audit path decides it.
 *
 * @param perSecond entries written per second over the window
 * @param calibration the relay's start-up calibration (its predictions)
 * @param lockWaitMeanSeconds mean lease wait per entry over the window, both communities
 * @param lockHeldMeanSeconds mean lease-held time per entry over the window, both communities
 * @param serviceMeanSeconds mean service time of one entry over the window
 * @param poolBusyFraction the pool's busy fraction over the window, lease waits left out ({@code
 *     refrelay_audit_pool_busy_seconds_total}'s rate)
 */
record AuditDrain(
    double perSecond,
    Calibration calibration,
    double lockWaitMeanSeconds,
    double lockHeldMeanSeconds,
    double serviceMeanSeconds,
    double poolBusyFraction) {

  /**
   * Entries drained in the time one write takes, both measured in the window: about how many writes
   * were in flight at once. One write is {@code exchanges} exchanges; the lease is held over all
   * but the first, so the mean held time over {@code exchanges - 1} is the time of one exchange
   * (its delay and its round trip) as this relay, on this machine, paid it during the window. Two
   * relays measured one after the other on a busy machine pay different exchange times; this figure
   * does not move with them, the raw rate does.
   */
  double writesInFlight() {
    int exchanges = calibration.shape().exchanges();
    double exchangeSeconds = lockHeldMeanSeconds / (exchanges - 1);
    return perSecond * exchanges * exchangeSeconds;
  }

  /** Events sent per community: more than two workers drain in the window, at the delay used. */
  static final int EVENTS_PER_COMMUNITY = 300;

  static final List<String> COMMUNITIES = List.of("a.localhost", "b.localhost");

  /** Entries written before the window opens: the workers are past their first statements. */
  static final int SETTLE_ENTRIES = 10;

  /**
   * Starts a relay with {@code flags} (audit on, raised limiter and queue added), floods its queue
   * and measures the drain over {@code window}.
   */
  static AuditDrain measure(Duration window, String... flags) throws Exception {
    List<String> all =
        new ArrayList<>(
            List.of(
                "--audit",
                "on",
                "--reset",
                "--limiter-events-per-sec",
                "1000000",
                "--audit-queue-capacity",
                "10000"));
    all.addAll(List.of(flags));
    try (ReferenceRelay relay = ReferenceRelay.start(Fixtures.config(all.toArray(String[]::new)))) {
      flood(relay);
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (written(relay) < SETTLE_ENTRIES && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      Sample before = Sample.of(relay);
      Thread.sleep(window.toMillis());
      Sample after = Sample.of(relay);
      assertThat(Fixtures.metric(relay, "refrelay_audit_queue_depth"))
          .as(
              "the queue must still hold entries at the window's end, or the drain was not saturated")
          .isPositive();
      double entries = after.count - before.count;
      assertThat(entries).as("entries written in the window").isPositive();
      return new AuditDrain(
          entries / ((after.atNanos - before.atNanos) / 1e9),
          relay.calibration(),
          (after.waitSum - before.waitSum) / (after.lockCount - before.lockCount),
          (after.heldSum - before.heldSum) / (after.lockCount - before.lockCount),
          (after.serviceSum - before.serviceSum) / entries,
          (after.poolBusy - before.poolBusy) / ((after.atNanos - before.atNanos) / 1e9));
    }
  }

  private static void flood(ReferenceRelay relay) throws Exception {
    Keys keys = Keys.generate();
    for (String host : COMMUNITIES) {
      try (RelayTestClient c = RelayTestClient.connect(relay.port(), host)) {
        for (int i = 0; i < EVENTS_PER_COMMUNITY; i++) {
          c.send(Fixtures.frame(Fixtures.event(keys)));
        }
        // Every OK back: every entry is in the queue (the queue holds them all).
        c.next(EVENTS_PER_COMMUNITY, WAIT);
      }
    }
  }

  private static double written(ReferenceRelay relay) {
    return Fixtures.metric(relay, "refrelay_audit_log_seconds_count");
  }

  /** The counters at one instant. */
  private record Sample(
      long atNanos,
      double count,
      double serviceSum,
      double lockCount,
      double waitSum,
      double heldSum,
      double poolBusy) {
    static Sample of(ReferenceRelay relay) {
      String scrape = relay.scrapeMetrics();
      long at = System.nanoTime();
      double lockCount = 0;
      double waitSum = 0;
      double heldSum = 0;
      for (String c : COMMUNITIES) {
        String label = "{community=\"" + c + "\"}";
        lockCount += Fixtures.metric(scrape, "refrelay_audit_lock_held_seconds_count" + label);
        waitSum += Fixtures.metric(scrape, "refrelay_audit_lock_wait_seconds_sum" + label);
        heldSum += Fixtures.metric(scrape, "refrelay_audit_lock_held_seconds_sum" + label);
      }
      return new Sample(
          at,
          Fixtures.metric(scrape, "refrelay_audit_log_seconds_count"),
          Fixtures.metric(scrape, "refrelay_audit_log_seconds_sum"),
          lockCount,
          waitSum,
          heldSum,
          Fixtures.metric(scrape, "refrelay_audit_pool_busy_seconds_total"));
    }
  }
}
