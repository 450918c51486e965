package dev.ceiling.verdict;

/**
 * Why a cell cannot be evidence, or what is notable about it. Whether a particular occurrence
 * excludes the cell is carried by {@link CellProblem#excludesEvidence()}: every kind excludes
 * except {@link #NOT_STEADY}, which excludes only where it could forge a separation.
 */
public enum ProblemKind {
  /** Admission rejections for quota moved: the limiter shaped the cell (the seed's trap). */
  ADMISSION_QUOTA(false),
  /**
   * Admission rejections because the limiter was unavailable moved: same NOTICE-without-OK path,
   * and load-correlated, so they can forge a knee that survives repeats.
   */
  ADMISSION_UNAVAILABLE(false),
  /**
   * A contamination counter was not exposed (and not declared positive-controlled), so the cell
   * cannot show it was clean.
   */
  COUNTER_NOT_EXPOSED(false),
  /** The relay answered OK false to some events. */
  RELAY_REJECTIONS(false),
  /** The relay sent NOTICE frames, which carry no event id: a rejection we cannot attribute. */
  NOTICES(false),
  /**
   * OKs named event ids the cell never sent: the relay answered for something else, so its answers
   * cannot be trusted to be about this load.
   */
  UNKNOWN_OK_IDS(false),
  /**
   * An upstream link failed during the cell: its delay proxy saw the target refuse connections,
   * drop them, or leave a request unanswered past the stall bound. The relay's figures then measure
   * an outage (fast failures, or waits on a dead service), not its path.
   */
  LINK_FAILED(false),
  /**
   * The relay stopped answering with events outstanding, and no link failed to blame: no answer
   * arrived for {@link CellProblems#RELAY_STALL_BOUND_S} or longer before the window closed (see
   * {@link CellProblems#stalled}). A stopped relay is not a slower one: its figures measure the
   * stop, not a ceiling.
   */
  RELAY_STALLED(false),
  /** The generator saw transport errors (connect, write, close, ...). */
  TRANSPORT_ERRORS(false),
  /** Audit writes failed: a failing write is a fast write, so the worker looks quicker. */
  AUDIT_WRITE_ERRORS(false),
  /** An enqueue failed: the worker is gone. Fatal for the run. */
  ENQUEUE_ERRORS(true),
  /** The cell ran after a cell whose enqueue failed in the same half: the worker was gone. */
  AFTER_WORKER_LOSS(false),
  /** A scraped counter went down during the cell (a restart): its deltas mean nothing. */
  COUNTER_RESET(false),
  /** The generator could not keep its schedule: the offer was not the one asked for. */
  GENERATOR_BOUND(false),
  /** The generator's headroom over the offered rate was below the minimum. */
  LOW_HEADROOM(false),
  /** The generator's headroom was not measured, so the offer cannot be shown to be real. */
  HEADROOM_UNKNOWN(false),
  /** |outstanding_delta| exceeded the tolerance: the queue banked or drained credit. */
  NOT_STEADY(false),
  /**
   * The client's own reading of the window was not steady ({@link ClientSteady}): its halves
   * disagree, or the outstanding count fell or grew unevenly, so answers to an earlier backlog may
   * be in the window. Excludes the cell where it has no queue reading (the client's reading is then
   * the steady check); beside a queue reading it is a cross-check that marks the cell only.
   */
  CLIENT_NOT_STEADY(false),
  /**
   * A metrics scrape bracketing the window took longer than {@link
   * CellProblems#SLOW_SCRAPE_FRACTION} of the window: the relay-side window is shifted from the
   * generator's by up to that long.
   */
  SLOW_SCRAPE(false),
  /**
   * The relay's accepted counter moved by a different amount than the generator's accepted count
   * over the window, beyond {@link CellProblems#ACCEPTED_TOLERANCE_FRACTION}: the two are not
   * measuring the same window (or the counter is not the one the mapping claims).
   */
  ACCEPTED_DISAGREES(false),
  /** The cell's offered rate is not on the experiment's rate grid. */
  OFF_GRID(false),
  /** The cell's requested duration differs from the experiment's. */
  DURATION_MISMATCH(false),
  /**
   * The warm-up slots sent were not recorded (a schema version 1 file), so accepted_in_window,
   * which also counts answers to warm-up slots, cannot be bounded by what was sent.
   */
  IN_WINDOW_UNBOUNDED(false),
  /**
   * Audit writes or enqueues failed in a cell with no audit path (the control arm): that arm's
   * audit path is live, so it is not the control it claims to be. Fatal for the run.
   */
  CONTROL_AUDIT_LIVE(true),
  /**
   * The audit completion counter or the audit row count moved in a cell of the control arm (the arm
   * without the path): audit work happened where the path is off. Fatal for the run.
   */
  CONTROL_AUDIT_MOVED(true),
  /**
   * The profile's {@code control_check} printed something else (or exited otherwise) after a
   * control cell than before it: the path is live in the arm that claims it is off. Fatal.
   */
  CONTROL_CHECK_CHANGED(true),
  /**
   * A control cell that shows neither the audit completion counter nor the audit row count, and ran
   * no control check: the control was assumed, not verified positive. A mark, never an exclusion;
   * the verdict's label says so.
   */
  CONTROL_NOT_VERIFIED(false),
  /**
   * The drain before the cell ran out of time: the cell started on the previous cell's backlog, so
   * it is not an independent draw (the seed's "repeats inherited each other's backlog").
   */
  DRAIN_TIMEOUT(false),
  /**
   * Split design: the audit workers may have been busy at or above the busy threshold in both arms
   * of a (rate, repeat) pair (each reading allowing for how long its end scrape took), so the
   * workers may have bound before any lock could and the pair cannot speak about the lock. Excludes
   * both cells of the pair.
   */
  MASKED_BY_WORKER(false),
  /**
   * Counts that cannot come from a working instrument: more accepted than offered, more answers in
   * the window than events sent (window slots plus warm-up slots), or accepted + rejected +
   * unacknowledged different from attempted. Fatal for the run.
   */
  IMPOSSIBLE_MEASUREMENT(true);

  private final boolean fatal;

  ProblemKind(boolean fatal) {
    this.fatal = fatal;
  }

  /** True when one occurrence fails the whole run, not just the cell. */
  public boolean fatal() {
    return fatal;
  }
}
