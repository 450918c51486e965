package dev.ceiling.generator;

import dev.ceiling.core.model.Checks;
import dev.ceiling.core.model.LatencySummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Everything one generator run measured: one {@link Result} per target and their aggregate, plus
 * the self-check. Serialized with {@code dev.ceiling.core.json.Json} (snake_case); raw histograms
 * are inside each {@link LatencySummary} so repeats and segments can be merged.
 *
 * <p>The figures line up with {@code dev.ceiling.core.model.Cell}: {@code attempted}, {@code
 * accepted}, {@code accepted_in_window} (the headline throughput; {@code Cell.accepted_per_s} and
 * {@code accepted_over_offered} are built from it), {@code rejected}, {@code rejected_by_prefix},
 * {@code notices}, {@code unacknowledged}, {@code transport_errors}, the three latencies, {@code
 * generator_bound}, its reason and {@code headroom}.
 *
 * <p>Schema 2 (this one) renamed schema 1's {@code achieved_per_s} / {@code achieved_over_offered}
 * (built from {@code accepted}, so they counted answers that arrived during the grace period) to
 * {@code accepted_in_window_per_s} / {@code accepted_in_window_over_offered} (answers that arrived
 * inside the window only), and added {@code sender_run_queue_wait_s} and each target's {@code
 * send_lag_bound_ms}. A schema-1 report is refused with an error naming {@code schema_version}.
 *
 * @param schemaVersion {@link #SCHEMA_VERSION}
 * @param config the configuration's one-line description
 * @param segment this process's share, "i/N"
 * @param startAt the shared start instant this process was given ({@code --start-at}: slot 0's due
 *     time for every segment), or null when it started its own clock
 * @param clockSource the clocks this process paced with (see {@link StartInstant#clockSource()})
 * @param firstSlotLateMs how late this process's first slot (warm-up included) went out, ms, or
 *     null when nothing was sent
 * @param clockStart the wall-clock instant the measured window starts (slot 0's due time plus the
 *     warm-up)
 * @param durationRequestedS the schedule's length, seconds: the denominator of every rate
 * @param durationElapsedS clock start to the last send (or to the send deadline when slots were
 *     left unsent), seconds
 * @param graceWaitedS seconds spent after the last send waiting for outstanding OKs
 * @param senderThreads threads that put slots on the wire
 * @param sourceAddresses M, the number of loopback source addresses the connections were spread
 *     over (a relay that limits per IP address saw M sources), 0 when the OS chose; null in a
 *     report written before it was recorded
 * @param senderBusyFraction the busiest sender thread's busy time / its send window, or null when
 *     nothing was sent
 * @param senderCpuS CPU seconds the sender threads used (whole run), or null when the JVM cannot
 *     measure thread CPU time
 * @param senderRunQueueWaitS seconds the sender threads spent runnable but waiting for a core
 *     (Linux schedstat), or null when /proc does not say
 * @param wakeFloorP99Ms the machine's wake floor: the p99 of how late the senders' own wait
 *     returned over about a second before the clock, ms, or null when not measured (a report
 *     written before it was recorded, or no time before a shared start instant). The self-check's
 *     bound is at least twice it
 * @param headroom 1 / senderBusyFraction: how many times the offered rate the busiest sender could
 *     have kept up with, or null when unknown (nothing sent)
 * @param generatorBound true when the generator could not keep its schedule (rule in
 *     docs/GENERATOR.md)
 * @param generatorBoundReason why, or null when not bound
 * @param incomplete null when the run covered its whole schedule; else why it stopped early and how
 *     much it covers ("stopped by SIGINT after 4.2 s of the 120.0 s schedule; ..."). The counts are
 *     then of the slots that came due before the stop (planned = sent + unsent), while every rate
 *     keeps the requested duration as its denominator: read the counts
 * @param aggregate all targets together
 * @param targets one entry per target, in configuration order
 */
public record GeneratorReport(
    int schemaVersion,
    String config,
    String segment,
    Instant startAt,
    String clockSource,
    Double firstSlotLateMs,
    Instant clockStart,
    double durationRequestedS,
    double durationElapsedS,
    double graceWaitedS,
    int senderThreads,
    Integer sourceAddresses,
    Double senderBusyFraction,
    Double senderCpuS,
    Double senderRunQueueWaitS,
    Double wakeFloorP99Ms,
    Double headroom,
    boolean generatorBound,
    String generatorBoundReason,
    String incomplete,
    Result aggregate,
    List<TargetReport> targets) {

  /** The report format this code writes and reads. */
  public static final int SCHEMA_VERSION = 2;

  public GeneratorReport {
    // Another schema's fields mean other things: nothing else is checked against this one's rules.
    if (schemaVersion != SCHEMA_VERSION) {
      throw new IllegalArgumentException(
          "schema_version must be "
              + SCHEMA_VERSION
              + ", got "
              + schemaVersion
              + " (schema 1's achieved_* fields counted answers after the window)");
    }
    Checks checks = new Checks();
    checks.notBlank("config", config);
    checks.notBlank("segment", segment);
    checks.notBlank("clock_source", clockSource);
    checks.nonNegativeOrNull("first_slot_late_ms", firstSlotLateMs);
    Objects.requireNonNull(clockStart, "clock_start must not be null");
    checks.positiveFinite("duration_requested_s", durationRequestedS);
    checks.nonNegativeFinite("duration_elapsed_s", durationElapsedS);
    checks.nonNegativeFinite("grace_waited_s", graceWaitedS);
    if (sourceAddresses != null && sourceAddresses < 0) {
      checks.add("source_addresses must be >= 0 or null, got " + sourceAddresses);
    }
    checks.nonNegativeOrNull("sender_busy_fraction", senderBusyFraction);
    checks.nonNegativeOrNull("sender_cpu_s", senderCpuS);
    checks.nonNegativeOrNull("sender_run_queue_wait_s", senderRunQueueWaitS);
    checks.nonNegativeOrNull("wake_floor_p99_ms", wakeFloorP99Ms);
    checks.nonNegativeOrNull("headroom", headroom);
    boundConsistent(checks, generatorBound, generatorBoundReason);
    if (incomplete != null && incomplete.isBlank()) {
      checks.add("incomplete must be null or non-blank, got '" + incomplete + "'");
    }
    Objects.requireNonNull(aggregate, "aggregate must not be null");
    targets = List.copyOf(Objects.requireNonNull(targets, "targets must not be null"));
    checks.orThrow();
  }

  /**
   * One target's configuration and results.
   *
   * @param sendLagBoundMs the send-lag p99 bound the self-check applied to this target: the largest
   *     of the configured bound, twice the machine's wake floor p99 and 10% of the interval between
   *     this process's slots of it
   */
  public record TargetReport(
      String community,
      String url,
      String hostHeader,
      double ratePerS,
      int connections,
      int identities,
      double sendLagBoundMs,
      Result result) {
    public TargetReport {
      Objects.requireNonNull(result, "result must not be null");
      new Checks()
          .notBlank("community", community)
          .notBlank("url", url)
          .positiveFinite("rate_per_s", ratePerS)
          .positiveFinite("send_lag_bound_ms", sendLagBoundMs)
          .orThrow();
    }
  }

  /**
   * Counts and latencies of one target or of all of them.
   *
   * @param offeredPerS this segment's offered rate, events/s (rate / segment count)
   * @param slotsPlanned slots this segment owns
   * @param slotsSent slots put on the wire (= attempted)
   * @param slotsUnsentLate slots still unsent at the send deadline because the generator was behind
   * @param slotsUnsentDeadConnection slots skipped because their connection had died
   * @param slotsCapDelayed slots that waited for the per-connection in-flight cap (sent late)
   * @param attempted events on the wire
   * @param accepted OK true for slots of the window, answered by the end of the grace period (so it
   *     may include answers that arrived after the window closed; per slot, not a rate)
   * @param rejected OK false
   * @param rejectedByPrefix rejections by NIP-01 prefix ("rate-limited", "invalid", ...; "none"
   *     when the message has no prefix)
   * @param firstRejection the first rejection's message, or null
   * @param notices NOTICE frames (carry no id, so never matched to an event)
   * @param firstNotice the first NOTICE's text, or null
   * @param unacknowledged sent events with no OK by the end of the grace period
   * @param unknownOkIds OKs whose id is not one this run sent
   * @param duplicateOks OKs for an event that was already answered
   * @param authChallenges NIP-42 AUTH challenges received (and answered)
   * @param transportErrors errors by class: connect, write, close, protocol, frame_too_large, error
   * @param firstTransportError the first transport error's description, or null
   * @param acceptedInWindow OK-true answers that arrived inside the measurement window, for any
   *     event (warm-up events included): the window's throughput, which the sweep uses. Under
   *     saturation an open-loop backlog grows without bound, so "events of the window answered by
   *     some deadline" depends on the deadline; answers per second while the load runs does not.
   *     Without a warm-up it misses the answers still in flight when the window closes (about rate
   *     x latency), which a warm-up balances with those in flight when it opens.
   * @param warmupSlotsSent warm-up slots put on the wire before the window opened: {@code
   *     acceptedInWindow <= attempted + warmupSlotsSent}, since an answer in the window answers
   *     either a window slot or a warm-up slot
   * @param acceptedInWindowFirstHalf OK-true answers that arrived in the window's first half (by
   *     arrival, as {@code acceptedInWindow}); the seven window fields from here on are null in a
   *     report written before they were recorded, and are all present or all null
   * @param acceptedInWindowSecondHalf those that arrived in its second half: the two halves sum to
   *     {@code acceptedInWindow}
   * @param acceptedInWindowOwnSlots OK-true answers that arrived in the window to slots of the
   *     window (the rest of {@code acceptedInWindow} answer warm-up slots)
   * @param windowSlotsOutstandingAtEnd slots of the window put on the wire before the window closed
   *     and not answered by then: the answers the window hands on to later, against which it may
   *     take answers to warm-up slots
   * @param outstandingAtWindowStart slots sent (warm-up included) minus slots answered (OK true or
   *     false), at the window's start
   * @param outstandingAtWindowMid the same at the window's middle
   * @param outstandingAtWindowEnd the same at the window's end
   * @param silenceAtWindowEndS seconds from the last answer (an OK, true or false, or a NOTICE: the
   *     relay is alive, whether or not it accepts) that arrived inside the window, or from the
   *     window's start when none did, to the window's end: with events outstanding at the end, how
   *     long the relay had stopped answering. Over several targets or segments the shortest (the
   *     relay's last answer to any of them); null in a report written before it was recorded
   * @param rejectedInWindowFirstHalf OK-false answers that arrived in the window's first half (by
   *     arrival, as the OK-true halves): every answer moves the outstanding count, so the client's
   *     steady check of a refusing relay needs them per half; present together with the next, or
   *     both null in a report written before they were recorded
   * @param rejectedInWindowSecondHalf those that arrived in its second half
   * @param acceptedInWindowPerS accepted_in_window / requested duration: the throughput headline
   * @param acceptedInWindowOverOffered accepted_in_window / (offered x requested duration)
   * @param sendLag intended slot to on the wire
   * @param service on the wire to OK
   * @param scheduled intended slot to OK (the primary latency)
   * @param generatorBound the self-check's verdict for these slots
   * @param generatorBoundReason why, or null
   */
  public record Result(
      double offeredPerS,
      long slotsPlanned,
      long slotsSent,
      long slotsUnsentLate,
      long slotsUnsentDeadConnection,
      long slotsCapDelayed,
      long attempted,
      long accepted,
      long rejected,
      Map<String, Long> rejectedByPrefix,
      String firstRejection,
      long notices,
      String firstNotice,
      long unacknowledged,
      long unknownOkIds,
      long duplicateOks,
      long authChallenges,
      Map<String, Long> transportErrors,
      String firstTransportError,
      long acceptedInWindow,
      long warmupSlotsSent,
      Long acceptedInWindowFirstHalf,
      Long acceptedInWindowSecondHalf,
      Long acceptedInWindowOwnSlots,
      Long windowSlotsOutstandingAtEnd,
      Long outstandingAtWindowStart,
      Long outstandingAtWindowMid,
      Long outstandingAtWindowEnd,
      Double silenceAtWindowEndS,
      Long rejectedInWindowFirstHalf,
      Long rejectedInWindowSecondHalf,
      double acceptedInWindowPerS,
      double acceptedInWindowOverOffered,
      LatencySummary sendLag,
      LatencySummary service,
      LatencySummary scheduled,
      boolean generatorBound,
      String generatorBoundReason) {
    public Result {
      Checks checks = new Checks();
      checks.positiveFinite("offered_per_s", offeredPerS);
      for (long v :
          new long[] {
            slotsPlanned,
            slotsSent,
            slotsUnsentLate,
            slotsUnsentDeadConnection,
            slotsCapDelayed,
            attempted,
            accepted,
            rejected,
            notices,
            unacknowledged,
            acceptedInWindow,
            warmupSlotsSent,
            unknownOkIds,
            duplicateOks,
            authChallenges
          }) {
        checks.nonNegative("count", v);
      }
      // Impossible measurements are errors, never passes.
      if (slotsSent + slotsUnsentLate + slotsUnsentDeadConnection != slotsPlanned) {
        checks.add(
            "sent + unsent_late + unsent_dead_connection must equal planned, got "
                + slotsSent
                + " + "
                + slotsUnsentLate
                + " + "
                + slotsUnsentDeadConnection
                + " != "
                + slotsPlanned);
      }
      if (attempted != slotsSent) {
        checks.add("attempted must equal slots_sent, got " + attempted + " != " + slotsSent);
      }
      if (accepted + rejected + unacknowledged != attempted) {
        checks.add(
            "accepted + rejected + unacknowledged must equal attempted, got "
                + accepted
                + " + "
                + rejected
                + " + "
                + unacknowledged
                + " != "
                + attempted);
      }
      windowHalves(
          checks,
          acceptedInWindow,
          acceptedInWindowFirstHalf,
          acceptedInWindowSecondHalf,
          acceptedInWindowOwnSlots,
          windowSlotsOutstandingAtEnd,
          outstandingAtWindowStart,
          outstandingAtWindowMid,
          outstandingAtWindowEnd);
      rejectedByPrefix = sorted("rejected_by_prefix", rejectedByPrefix);
      transportErrors = sorted("transport_errors", transportErrors);
      checks.nonNegativeOrNull("silence_at_window_end_s", silenceAtWindowEndS);
      checks.nonNegativeOrNull("rejected_in_window_first_half", rejectedInWindowFirstHalf);
      checks.nonNegativeOrNull("rejected_in_window_second_half", rejectedInWindowSecondHalf);
      if ((rejectedInWindowFirstHalf == null) != (rejectedInWindowSecondHalf == null)) {
        checks.add(
            "rejected_in_window_first_half and rejected_in_window_second_half must both be present"
                + " or both be absent, got "
                + rejectedInWindowFirstHalf
                + " and "
                + rejectedInWindowSecondHalf);
      }
      checks.nonNegativeFinite("accepted_in_window_per_s", acceptedInWindowPerS);
      checks.nonNegativeFinite("accepted_in_window_over_offered", acceptedInWindowOverOffered);
      Objects.requireNonNull(sendLag, "send_lag must not be null");
      Objects.requireNonNull(service, "service must not be null");
      Objects.requireNonNull(scheduled, "scheduled must not be null");
      boundConsistent(checks, generatorBound, generatorBoundReason);
      checks.orThrow();
    }

    /**
     * What {@code parts} measured together: the one place results add up, for a process's targets
     * into its aggregate and for segments into the whole schedule. Counts add, each first message
     * is the first part's that has one, the rates are rebuilt from the summed in-window count, the
     * latencies are merged by {@code latencies} (from the raw histograms, never by averaging
     * percentiles), and the self-check is ORed with each part's reason kept under its label.
     *
     * @param labels one per part, naming it in the joined reason ("target 1", "segment 0/2")
     * @param offeredPerS the offered rate of the parts together, events/s
     * @param durationS the requested duration every part shares, seconds
     */
    public static Result sum(
        List<Result> parts,
        List<String> labels,
        double offeredPerS,
        double durationS,
        Function<List<LatencySummary>, LatencySummary> latencies) {
      List<String> reasons = new ArrayList<>();
      for (int i = 0; i < parts.size(); i++) {
        if (parts.get(i).generatorBound()) {
          reasons.add(labels.get(i) + ": " + parts.get(i).generatorBoundReason());
        }
      }
      String reason = reasons.isEmpty() ? null : String.join("; ", reasons);
      long sent = total(parts, Result::slotsSent);
      long inWindow = total(parts, Result::acceptedInWindow);
      return new Result(
          offeredPerS,
          total(parts, Result::slotsPlanned),
          sent,
          total(parts, Result::slotsUnsentLate),
          total(parts, Result::slotsUnsentDeadConnection),
          total(parts, Result::slotsCapDelayed),
          sent,
          total(parts, Result::accepted),
          total(parts, Result::rejected),
          merged(parts, Result::rejectedByPrefix),
          first(parts, Result::firstRejection),
          total(parts, Result::notices),
          first(parts, Result::firstNotice),
          total(parts, Result::unacknowledged),
          total(parts, Result::unknownOkIds),
          total(parts, Result::duplicateOks),
          total(parts, Result::authChallenges),
          merged(parts, Result::transportErrors),
          first(parts, Result::firstTransportError),
          inWindow,
          total(parts, Result::warmupSlotsSent),
          totalOrNull(parts, Result::acceptedInWindowFirstHalf),
          totalOrNull(parts, Result::acceptedInWindowSecondHalf),
          totalOrNull(parts, Result::acceptedInWindowOwnSlots),
          totalOrNull(parts, Result::windowSlotsOutstandingAtEnd),
          totalOrNull(parts, Result::outstandingAtWindowStart),
          totalOrNull(parts, Result::outstandingAtWindowMid),
          totalOrNull(parts, Result::outstandingAtWindowEnd),
          shortestOrNull(parts),
          totalOrNull(parts, Result::rejectedInWindowFirstHalf),
          totalOrNull(parts, Result::rejectedInWindowSecondHalf),
          inWindow / durationS,
          inWindow / (offeredPerS * durationS),
          latencies.apply(parts.stream().map(Result::sendLag).toList()),
          latencies.apply(parts.stream().map(Result::service).toList()),
          latencies.apply(parts.stream().map(Result::scheduled).toList()),
          reason != null,
          reason);
    }

    /**
     * The parts' shortest silence at the window's end (every part shares the window, so this is the
     * time since the relay's last answer to any of them), or null when any part did not record it.
     */
    private static Double shortestOrNull(List<Result> parts) {
      Double min = null;
      for (Result p : parts) {
        if (p.silenceAtWindowEndS() == null) {
          return null;
        }
        min = min == null ? p.silenceAtWindowEndS() : Math.min(min, p.silenceAtWindowEndS());
      }
      return min;
    }

    private static long total(List<Result> parts, ToLongFunction<Result> count) {
      return parts.stream().mapToLong(count).sum();
    }

    /**
     * The parts' sum, or null when any part did not record the count (an older report) or there is
     * no part to have recorded it.
     */
    private static Long totalOrNull(List<Result> parts, Function<Result, Long> count) {
      if (parts.isEmpty()) {
        return null;
      }
      long sum = 0;
      for (Result p : parts) {
        Long v = count.apply(p);
        if (v == null) {
          return null;
        }
        sum += v;
      }
      return sum;
    }

    /**
     * The window's halves and outstanding counts are recorded together or not at all, and they
     * balance: the halves add up to the in-window count, and answers to the window's own slots are
     * part of it.
     */
    private static void windowHalves(
        Checks checks,
        long inWindow,
        Long firstHalf,
        Long secondHalf,
        Long ownSlots,
        Long ownOutstandingAtEnd,
        Long atStart,
        Long atMid,
        Long atEnd) {
      Long[] all = {firstHalf, secondHalf, ownSlots, ownOutstandingAtEnd, atStart, atMid, atEnd};
      long present = Arrays.stream(all).filter(Objects::nonNull).count();
      if (present == 0) {
        return;
      }
      if (present != all.length) {
        checks.add(
            "accepted_in_window_first_half, accepted_in_window_second_half,"
                + " accepted_in_window_own_slots, window_slots_outstanding_at_end and"
                + " outstanding_at_window_start/mid/end must all be present or all be null, got "
                + Arrays.toString(all));
        return;
      }
      checks.nonNegativeOrNull("accepted_in_window_first_half", firstHalf);
      checks.nonNegativeOrNull("accepted_in_window_second_half", secondHalf);
      checks.nonNegativeOrNull("accepted_in_window_own_slots", ownSlots);
      checks.nonNegativeOrNull("window_slots_outstanding_at_end", ownOutstandingAtEnd);
      checks.nonNegativeOrNull("outstanding_at_window_start", atStart);
      checks.nonNegativeOrNull("outstanding_at_window_mid", atMid);
      checks.nonNegativeOrNull("outstanding_at_window_end", atEnd);
      if (firstHalf + secondHalf != inWindow) {
        checks.add(
            "accepted_in_window_first_half + accepted_in_window_second_half must equal"
                + " accepted_in_window, got "
                + firstHalf
                + " + "
                + secondHalf
                + " != "
                + inWindow);
      }
      if (ownSlots > inWindow) {
        checks.add(
            "accepted_in_window_own_slots must be <= accepted_in_window, got "
                + ownSlots
                + " > "
                + inWindow);
      }
    }

    private static Map<String, Long> merged(
        List<Result> parts, Function<Result, Map<String, Long>> byClass) {
      Map<String, Long> sum = new TreeMap<>();
      parts.forEach(p -> byClass.apply(p).forEach((k, v) -> sum.merge(k, v, Long::sum)));
      return sum;
    }

    private static String first(List<Result> parts, Function<Result, String> message) {
      return parts.stream().map(message).filter(Objects::nonNull).findFirst().orElse(null);
    }
  }

  private static void boundConsistent(Checks checks, boolean bound, String reason) {
    if (bound != (reason != null)) {
      checks.add(
          "generator_bound_reason must be set exactly when generator_bound is true, got bound="
              + bound
              + " reason="
              + reason);
    }
  }

  private static Map<String, Long> sorted(String field, Map<String, Long> m) {
    Objects.requireNonNull(m, field + " must not be null (use {})");
    TreeMap<String, Long> copy = new TreeMap<>();
    m.forEach(
        (k, v) -> {
          if (v == null || v < 0) {
            throw new IllegalArgumentException(field + "." + k + " must be >= 0, got " + v);
          }
          copy.put(k, v);
        });
    return java.util.Collections.unmodifiableMap(copy);
  }
}
