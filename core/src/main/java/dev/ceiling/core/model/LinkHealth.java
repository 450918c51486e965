package dev.ceiling.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One upstream link's health during one cell, as its delay proxy saw it from the start of the
 * cell's load (warm-up included) to the end of its grace period: connections the relay opened,
 * connections the target refused, connections the target dropped (closed or reset while the relay
 * held them open), and stalls (requests the target left unanswered for longer than the proxy's
 * stall bound). A link failed in the cell when any of the last three is above zero.
 *
 * @param link the upstream's name in the profile
 * @param target where the proxy forwards, {@code host:port}
 * @param opened connections the relay opened through the proxy, >= 0
 * @param refused connections the target refused or could not be reached on, >= 0
 * @param dropped connections the target closed or reset while the relay held them, >= 0
 * @param stalls requests left without a reply past the stall bound, >= 0
 * @param longestNoReplyS the longest wait for a reply among the stalls, seconds, >= 0 (0 when none)
 * @param firstFailureS the first failure's offset from the start of the cell's load, seconds, or
 *     null when the link did not fail
 */
public record LinkHealth(
    String link,
    String target,
    long opened,
    long refused,
    long dropped,
    long stalls,
    double longestNoReplyS,
    Double firstFailureS) {

  public LinkHealth {
    Checks checks = new Checks().notBlank("links[].link", link).notBlank("links[].target", target);
    checks
        .nonNegative("links[].opened", opened)
        .nonNegative("links[].refused", refused)
        .nonNegative("links[].dropped", dropped)
        .nonNegative("links[].stalls", stalls)
        .nonNegativeFinite("links[].longest_no_reply_s", longestNoReplyS)
        .nonNegativeOrNull("links[].first_failure_s", firstFailureS);
    boolean failed = refused > 0 || dropped > 0 || stalls > 0;
    if (failed != (firstFailureS != null)) {
      checks.add(
          "links[].first_failure_s must be set exactly when the link failed, got failed="
              + failed
              + " first_failure_s="
              + firstFailureS);
    }
    checks.orThrow();
  }

  /** True when the target refused, dropped or stalled a connection of the relay's in the cell. */
  public boolean failed() {
    return refused > 0 || dropped > 0 || stalls > 0;
  }

  /**
   * What happened, in words: "link 'cache': 14 connections refused by 127.0.0.1:6379, 1 dropped by
   * it, 2 requests with no reply (the longest 3.1 s), the first 12.3 s into the cell".
   */
  public String describe() {
    List<String> what = new ArrayList<>();
    if (refused > 0) {
      what.add(refused + (refused == 1 ? " connection" : " connections") + " refused by " + target);
    }
    if (dropped > 0) {
      what.add(
          dropped
              + (dropped == 1 ? " connection" : " connections")
              + " dropped by "
              + (refused > 0 ? "it" : target));
    }
    if (stalls > 0) {
      what.add(
          String.format(
              Locale.ROOT,
              "%d %s with no reply from %s (the longest %.1f s)",
              stalls,
              stalls == 1 ? "request" : "requests",
              refused > 0 || dropped > 0 ? "it" : target,
              longestNoReplyS));
    }
    if (what.isEmpty()) {
      return "link '" + link + "': healthy (" + opened + " connections opened)";
    }
    return String.format(
        Locale.ROOT,
        "link '%s': %s, the first %.1f s into the cell",
        link,
        String.join(", ", what),
        Objects.requireNonNull(firstFailureS));
  }
}
