package dev.ceiling.core.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the generator counted in one cell's window. The two ratios are derived (and checked) by
 * {@link Cell}, which knows the offered rate and the requested duration.
 *
 * @param attempted events of the window's slots put on the wire
 * @param warmupSlotsSent warm-up slots put on the wire before the window opened; their answers may
 *     arrive inside the window, so {@code acceptedInWindow <= attempted + warmupSlotsSent} is the
 *     bound the verdict checks. Null only in a schema version 1 document, which did not record it
 * @param accepted events of the window's slots answered OK true by the end of the grace period
 * @param acceptedInWindow OK-true answers that arrived during the measurement window, whichever
 *     slot they answer: the window's throughput (under saturation the open-loop backlog grows
 *     without bound, so "slots answered by some deadline" depends on the deadline; answers per
 *     second while the load runs does not)
 * @param acceptedPerS {@link #creditedInWindow()} / requested duration: the client-side ceiling at
 *     an offer above it
 * @param acceptedOverOffered {@link #creditedInWindow()} / (offered x requested duration): the
 *     requested duration is the denominator so a run that overran cannot flatter itself
 * @param acceptedInWindowFirstHalf OK-true answers that arrived in the window's first half; this
 *     and the six window counts after it are all present or all null (null: a cell written before
 *     they were recorded, then left out of the JSON)
 * @param acceptedInWindowSecondHalf those that arrived in its second half
 * @param acceptedInWindowOwnSlots OK-true answers in the window to the window's own slots
 * @param windowSlotsOutstandingAtEnd the window's slots sent before it closed and unanswered then
 * @param outstandingAtWindowStart slots sent (warm-up included) minus slots answered, at the
 *     window's start
 * @param outstandingAtWindowMid the same at its middle
 * @param outstandingAtWindowEnd the same at its end
 * @param silenceAtWindowEndS seconds from the last answer (OK true or false) inside the window, or
 *     from its start when none came, to its end: with events outstanding at the end, how long the
 *     relay had stopped answering. Null when not recorded (a cell written before it was), then left
 *     out of the JSON
 * @param rejectedInWindowFirstHalf OK-false answers that arrived in the window's first half (by
 *     arrival, whichever slot they answer, as the OK-true halves): with them the client's steady
 *     check reads a refusing relay per half, as every answer moves the outstanding count. This and
 *     the next are present together, or null in a cell written before they were recorded (then left
 *     out of the JSON)
 * @param rejectedInWindowSecondHalf those that arrived in its second half
 * @param rejected events answered OK false
 * @param rejectedByPrefix rejections counted by NIP-01 prefix ("rate-limited", "invalid", ...)
 * @param notices NOTICE frames received (cannot be matched to an event)
 * @param firstNotice the first NOTICE's text, or null when there was none (or not recorded): what
 *     the relay said, so an exclusion can name it
 * @param unacknowledged events with no OK by the end of the grace period
 * @param unknownOkIds OKs naming an event id the cell never sent, or null when not recorded (schema
 *     version 1)
 * @param transportErrors transport errors by class ("connect", "write", "close", ...)
 * @param acceptedByCommunity accepted events per target community
 */
public record CellCounts(
    long attempted,
    Long warmupSlotsSent,
    long accepted,
    long acceptedInWindow,
    double acceptedPerS,
    double acceptedOverOffered,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long acceptedInWindowFirstHalf,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long acceptedInWindowSecondHalf,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long acceptedInWindowOwnSlots,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long windowSlotsOutstandingAtEnd,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long outstandingAtWindowStart,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long outstandingAtWindowMid,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long outstandingAtWindowEnd,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double silenceAtWindowEndS,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long rejectedInWindowFirstHalf,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long rejectedInWindowSecondHalf,
    long rejected,
    Map<String, Long> rejectedByPrefix,
    long notices,
    String firstNotice,
    long unacknowledged,
    Long unknownOkIds,
    Map<String, Long> transportErrors,
    Map<String, Long> acceptedByCommunity) {

  public CellCounts {
    new Checks()
        .nonNegative("attempted", attempted)
        .nonNegativeOrNull("warmup_slots_sent", warmupSlotsSent)
        .nonNegative("accepted", accepted)
        .nonNegative("accepted_in_window", acceptedInWindow)
        .nonNegative("rejected", rejected)
        .nonNegative("notices", notices)
        .nonNegative("unacknowledged", unacknowledged)
        .nonNegativeOrNull("unknown_ok_ids", unknownOkIds)
        .nonNegativeOrNull("accepted_in_window_first_half", acceptedInWindowFirstHalf)
        .nonNegativeOrNull("accepted_in_window_second_half", acceptedInWindowSecondHalf)
        .nonNegativeOrNull("accepted_in_window_own_slots", acceptedInWindowOwnSlots)
        .nonNegativeOrNull("window_slots_outstanding_at_end", windowSlotsOutstandingAtEnd)
        .nonNegativeOrNull("outstanding_at_window_start", outstandingAtWindowStart)
        .nonNegativeOrNull("outstanding_at_window_mid", outstandingAtWindowMid)
        .nonNegativeOrNull("outstanding_at_window_end", outstandingAtWindowEnd)
        .nonNegativeOrNull("silence_at_window_end_s", silenceAtWindowEndS)
        .nonNegativeOrNull("rejected_in_window_first_half", rejectedInWindowFirstHalf)
        .nonNegativeOrNull("rejected_in_window_second_half", rejectedInWindowSecondHalf)
        .require(
            (rejectedInWindowFirstHalf == null) == (rejectedInWindowSecondHalf == null),
            "rejected_in_window_first_half and rejected_in_window_second_half must both be present"
                + " or both be absent, got "
                + rejectedInWindowFirstHalf
                + " and "
                + rejectedInWindowSecondHalf)
        .require(
            allOrNone(
                acceptedInWindowFirstHalf,
                acceptedInWindowSecondHalf,
                acceptedInWindowOwnSlots,
                windowSlotsOutstandingAtEnd,
                outstandingAtWindowStart,
                outstandingAtWindowMid,
                outstandingAtWindowEnd),
            "the window counts (accepted_in_window_first_half, accepted_in_window_second_half,"
                + " accepted_in_window_own_slots, window_slots_outstanding_at_end,"
                + " outstanding_at_window_start/mid/end) must all be present or all be absent, got "
                + Arrays.asList(
                    acceptedInWindowFirstHalf,
                    acceptedInWindowSecondHalf,
                    acceptedInWindowOwnSlots,
                    windowSlotsOutstandingAtEnd,
                    outstandingAtWindowStart,
                    outstandingAtWindowMid,
                    outstandingAtWindowEnd))
        // An impossible measurement is an error, never a pass. The finer balance (accepted +
        // rejected + unacknowledged == attempted, and the in-window bound) is the verdict's to
        // report as IMPOSSIBLE_MEASUREMENT, so a file holding one such cell still reads whole.
        .require(
            accepted + rejected <= attempted,
            "accepted + rejected must be <= attempted, got "
                + accepted
                + " + "
                + rejected
                + " > "
                + attempted)
        .orThrow();
    rejectedByPrefix = counts("rejected_by_prefix", rejectedByPrefix);
    transportErrors = counts("transport_errors", transportErrors);
    acceptedByCommunity = counts("accepted_by_community", acceptedByCommunity);
  }

  /** True when the window's halves and outstanding counts were recorded (all present). */
  public boolean hasWindowCounts() {
    return acceptedInWindowFirstHalf != null;
  }

  /** True when the OK-false answers of each half of the window were recorded (both present). */
  public boolean hasRejectedHalves() {
    return rejectedInWindowFirstHalf != null;
  }

  /**
   * The numerator of {@code acceptedPerS} and {@code acceptedOverOffered}: the OK-true answers that
   * arrived in the window, except that answers to slots sent before the window (warm-up slots) are
   * credited only up to the window's own slots still unanswered when it closed.
   *
   * <p>Why this and not the plain arrivals: counting answers by arrival is what makes a saturated
   * cell's figure independent of any deadline, and it is fair only because the answers that arrive
   * for earlier slots stand in for the window's own slots answered after it closes. An answer to a
   * warm-up slot is therefore credited one for one against a window slot handed on unanswered, and
   * never beyond: a relay that held its answers through the warm-up and released them in the window
   * cannot lend the window accepts it did not earn. Under saturation the window hands on its
   * growing backlog, so every arrival is credited and the ceiling is the arrival rate; at an offer
   * below the ceiling the two sides are the answers in flight at either edge. Answers to the
   * window's own slots are at most its slots sent before it closed minus those still unanswered
   * then, so the numerator never exceeds the window's slots sent: accepted/offered cannot exceed 1
   * because of a backlog. Why not only the answers to the window's own slots: under saturation
   * those arrive late, after the window, and a ceiling read from them would be too low by the whole
   * backlog.
   *
   * @return the credited count; {@code acceptedInWindow} itself when the window counts were not
   *     recorded (a cell written before them)
   */
  public long creditedInWindow() {
    if (!hasWindowCounts()) {
      return acceptedInWindow;
    }
    long earlier = Math.max(0, acceptedInWindow - acceptedInWindowOwnSlots);
    return acceptedInWindow - earlier + Math.min(earlier, windowSlotsOutstandingAtEnd);
  }

  private static boolean allOrNone(Long... values) {
    long present = Arrays.stream(values).filter(Objects::nonNull).count();
    return present == 0 || present == values.length;
  }

  private static Map<String, Long> counts(String field, Map<String, Long> m) {
    Objects.requireNonNull(m, field + " must not be null (use {})");
    TreeMap<String, Long> copy = new TreeMap<>();
    m.forEach(
        (k, v) -> {
          if (v == null || v < 0) {
            throw new IllegalArgumentException(field + "." + k + " must be >= 0, got " + v);
          }
          copy.put(k, v);
        });
    return Collections.unmodifiableMap(copy);
  }
}
