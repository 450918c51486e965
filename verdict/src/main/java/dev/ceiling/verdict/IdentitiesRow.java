package dev.ceiling.verdict;

/**
 * One number of identities in the defaults round.
 *
 * @param identities signing keys the offer was spread over, evenly (N)
 * @param cells cells measured at N
 * @param used cells that no problem other than the limiter's own excluded
 * @param acceptedOverOffered mean accepted/offered of the used cells, or null when none
 * @param acceptedPerS mean accepted/s of the used cells, or null
 * @param limiterRefusedFraction mean share of the offered events the limiter refused (the relay's
 *     quota counter where mapped, else what the generator saw: NOTICEs and OK false with the
 *     "rate-limited" prefix), or null when no cell was used
 * @param busyFraction mean busy fraction of the used cells (the worker pool's, lease waits left
 *     out, where the relay exposes it; else the audit write time's), or null when unread
 * @param reading what binds at N
 */
public record IdentitiesRow(
    int identities,
    int cells,
    int used,
    Double acceptedOverOffered,
    Double acceptedPerS,
    Double limiterRefusedFraction,
    Double busyFraction,
    Reading reading) {

  /** What binds at one N. */
  public enum Reading {
    /** The admission limiter refused at least 1% of the offer: each identity's budget binds. */
    LIMITER,
    /** No limiter refusal, accepted/offered short of 1, and the audit workers were busy. */
    WORKERS,
    /** No limiter refusal, accepted/offered short of 1, and the workers not shown busy. */
    RELAY_CEILING,
    /** No limiter refusal and the offer accepted (within the steady tolerance): nothing binds. */
    NOTHING,
    /**
     * No limiter refusal and the offer accepted, but the audit backlog grew over a window by more
     * than the steady tolerance: the relay accepted into a queue still filling, so the window
     * cannot say whether anything past the limiter binds.
     */
    QUEUE_FILLING,
    /** No used cell: the row cannot say. */
    NOT_MEASURED
  }
}
