package dev.ceiling.core.model;

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
 * @param acceptedPerS acceptedInWindow / requested duration
 * @param acceptedOverOffered acceptedInWindow / (offered x requested duration): the requested
 *     duration is the denominator so a run that overran cannot flatter itself
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
