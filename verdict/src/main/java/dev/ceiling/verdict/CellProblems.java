package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.LinkHealth;
import dev.ceiling.core.model.MetricRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The per-cell rules: what excludes a cell from evidence, what is fatal, and whether the cell was
 * steady and busy. Pure functions of one cell, its experiment's identity and the config.
 *
 * <p>"Not exposed" for a contamination counter: a key that is absent from {@code counter_deltas},
 * or present with a null value, means the relay did not show the series. A cell that cannot show it
 * was clean is excluded ({@link ProblemKind#COUNTER_NOT_EXPOSED}); a profile whose relay exposes a
 * series only once it moves declares the role positive-controlled and the runner records 0 for it
 * before the verdict sees it. The admission counters are required in every arm (the limiter does
 * not care which arm runs); the audit write and enqueue counters are required only in cells that
 * have an audit path ({@code outstanding_delta} or {@code audit_busy_fraction} set), since an arm
 * without the path cannot fail to write.
 */
public final class CellProblems {
  private CellProblems() {}

  /**
   * A scrape bracketing the window may take at most this fraction of the window: the snapshot is
   * taken somewhere inside the scrape, so the relay-side window can be shifted by its duration.
   */
  public static final double SLOW_SCRAPE_FRACTION = 0.10;

  /**
   * The relay's accepted counter and the generator's accepted-in-window count may differ by this
   * fraction of the larger (or {@link #ACCEPTED_TOLERANCE_EVENTS}, whichever is more): events in
   * flight at the window's edges and a scrape within {@link #SLOW_SCRAPE_FRACTION} account for
   * less.
   */
  public static final double ACCEPTED_TOLERANCE_FRACTION = 0.25;

  /** The absolute floor of that tolerance, events: a few in-flight events at small rates. */
  public static final long ACCEPTED_TOLERANCE_EVENTS = 10;

  /**
   * A relay is stalled when no answer arrived for at least this long, seconds, before the window
   * closed while events were outstanding. The same 2 s as the delay proxy's stall bound for a
   * link's request, and for the same reason: a relay that is slow but running answers its queue at
   * its own pace, so the gap between two answers is about one of its service times (milliseconds
   * for every relay this project has measured, 0.4 s at the slowest delay a sweep sets), and a
   * loaded machine delays a runnable process by tens of milliseconds, not seconds. Two seconds with
   * nothing answered and something owed is a stop, not a ceiling.
   */
  public static final double RELAY_STALL_BOUND_S = 2.0;

  /**
   * And at least this many of the offer's send intervals: at a low offer a healthy relay's answers
   * are as far apart as the sends, so a silence shorter than a few intervals is only the offer's
   * own pace.
   */
  public static final double RELAY_STALL_SEND_INTERVALS = 4.0;

  /**
   * Every problem with {@code c}, in a fixed order. Never throws for a valid cell.
   *
   * @param c the cell
   * @param id its experiment (rate grid, duration, arms, queue capacity)
   * @param cfg thresholds
   * @return the problems; empty when the cell is clean evidence
   */
  public static List<CellProblem> of(Cell c, ExperimentIdentity id, VerdictConfig cfg) {
    return of(c, id, cfg, false);
  }

  /**
   * Every problem with {@code c}, in a fixed order, for a relay whose contamination evidence is the
   * generator's alone when {@code clientEvidence}: then no counter is required (there are none to
   * expose), and NOTICE frames, OK false, transport errors and unknown-id OKs are the only signs of
   * contamination, each excluding the cell as in the metrics case.
   *
   * @param c the cell
   * @param id its experiment
   * @param cfg thresholds
   * @param clientEvidence true when the relay's profile declares {@code contamination_evidence:
   *     "client"}
   * @return the problems; empty when the cell is clean evidence
   */
  public static List<CellProblem> of(
      Cell c, ExperimentIdentity id, VerdictConfig cfg, boolean clientEvidence) {
    Objects.requireNonNull(c, "cell");
    Objects.requireNonNull(id, "identity");
    Objects.requireNonNull(cfg, "config");
    List<CellProblem> out = new ArrayList<>();

    if (!clientEvidence) {
      admission(c, MetricRole.ADMISSION_REJECTIONS_QUOTA, ProblemKind.ADMISSION_QUOTA, out);
      admission(
          c, MetricRole.ADMISSION_REJECTIONS_UNAVAILABLE, ProblemKind.ADMISSION_UNAVAILABLE, out);
    }
    if (c.rejected() > 0) {
      out.add(
          exclude(
              ProblemKind.RELAY_REJECTIONS,
              "the relay answered OK false to "
                  + c.rejected()
                  + " events (by prefix "
                  + c.rejectedByPrefix()
                  + ")"));
    }
    if (c.notices() > 0) {
      out.add(
          exclude(
              ProblemKind.NOTICES,
              "the relay sent "
                  + c.notices()
                  + " NOTICE frames"
                  + (c.firstNotice() == null ? "" : " (the first: \"" + c.firstNotice() + "\")")
                  + ", which carry no event id: rejections that cannot be attributed"));
    }
    if (c.unknownOkIds() != null && c.unknownOkIds() > 0) {
      out.add(
          exclude(
              ProblemKind.UNKNOWN_OK_IDS,
              c.unknownOkIds()
                  + " OKs named event ids this cell never sent: the relay's answers are not"
                  + " about this load"));
    }
    for (LinkHealth link : c.environment().failedLinks()) {
      out.add(exclude(ProblemKind.LINK_FAILED, link.describe()));
    }
    if (c.environment().failedLinks().isEmpty() && stalled(c)) {
      out.add(
          exclude(
              ProblemKind.RELAY_STALLED,
              String.format(
                  Locale.ROOT,
                  "the relay answered nothing (no OK, no NOTICE) for the last %.1f s of the window with %d events"
                      + " outstanding, and no link failed to blame: a stopped relay, not a slower"
                      + " one",
                  c.counts().silenceAtWindowEndS(),
                  c.counts().outstandingAtWindowEnd())));
    }
    long transport = c.transportErrors().values().stream().mapToLong(Long::longValue).sum();
    if (transport > 0) {
      out.add(
          exclude(
              ProblemKind.TRANSPORT_ERRORS,
              "the generator saw " + transport + " transport errors " + c.transportErrors()));
    }
    if (hasAuditPath(c)) {
      Double writes = c.delta(MetricRole.AUDIT_WRITE_ERRORS);
      if (writes == null) {
        out.add(notExposed(MetricRole.AUDIT_WRITE_ERRORS, "failed writes would look fast"));
      } else if (writes > 0) {
        out.add(
            exclude(
                ProblemKind.AUDIT_WRITE_ERRORS,
                Fmt.num(writes)
                    + " audit writes failed during the cell: a failing write is a fast write"));
      }
      Double enqueues = c.delta(MetricRole.AUDIT_ENQUEUE_ERRORS);
      if (enqueues == null) {
        out.add(notExposed(MetricRole.AUDIT_ENQUEUE_ERRORS, "a dead worker would go unseen"));
      }
    }
    // Enqueue failures are fatal in any arm, whatever the audit path says. In a cell with no audit
    // path they say the path is live where it should be off, not that a worker died.
    Double enqueues = c.delta(MetricRole.AUDIT_ENQUEUE_ERRORS);
    if (!hasAuditPath(c)) {
      Double writes = c.delta(MetricRole.AUDIT_WRITE_ERRORS);
      if ((writes != null && writes > 0) || (enqueues != null && enqueues > 0)) {
        out.add(
            exclude(
                ProblemKind.CONTROL_AUDIT_LIVE,
                "audit writes failed ("
                    + (writes == null ? "not exposed" : Fmt.num(writes))
                    + ") or enqueues failed ("
                    + (enqueues == null ? "not exposed" : Fmt.num(enqueues))
                    + ") in a cell with no audit path: the '"
                    + c.arm()
                    + "' arm's audit path is live, so it is not the control it claims to be"));
      }
    } else if (enqueues != null && enqueues > 0) {
      out.add(
          exclude(
              ProblemKind.ENQUEUE_ERRORS,
              Fmt.num(enqueues)
                  + " audit enqueues failed: the worker is gone, so every later cell is suspect"));
    }
    ControlVerification.check(c, id, out);
    ControlVerification.drain(c, out);
    if (!c.counterResets().isEmpty()) {
      out.add(
          exclude(
              ProblemKind.COUNTER_RESET,
              "counters went down during the cell (a restart?): " + c.counterResets()));
    }
    if (c.generatorBound()) {
      out.add(
          exclude(
              ProblemKind.GENERATOR_BOUND,
              "the generator could not keep its schedule: " + c.generatorBoundReason()));
    }
    if (c.headroom() == null) {
      out.add(
          exclude(
              ProblemKind.HEADROOM_UNKNOWN,
              "the generator's headroom was not measured, so the offer cannot be shown to be"
                  + " real"));
    } else if (c.headroom() < cfg.minHeadroom()) {
      out.add(
          exclude(
              ProblemKind.LOW_HEADROOM,
              "generator headroom "
                  + Fmt.num(c.headroom())
                  + "x is below the required "
                  + Fmt.num(cfg.minHeadroom())
                  + "x"));
    }
    steadiness(c, id, cfg, out);
    clientSteadiness(c, cfg, out);
    MeasurementChecks.windowAlignment(c, out);
    if (!onGrid(c.offeredPerS(), id.ratesPerS())) {
      out.add(
          exclude(
              ProblemKind.OFF_GRID,
              "offered rate "
                  + Fmt.num(c.offeredPerS())
                  + "/s is not on the rate grid "
                  + id.ratesPerS()));
    }
    if (!close(c.durationRequestedS(), id.durationS())) {
      out.add(
          exclude(
              ProblemKind.DURATION_MISMATCH,
              "requested duration "
                  + Fmt.num(c.durationRequestedS())
                  + " s differs from the experiment's "
                  + Fmt.num(id.durationS())
                  + " s"));
    }
    MeasurementChecks.impossible(c, out);
    return List.copyOf(out);
  }

  /**
   * Whether the relay had stopped answering when the window closed: events were outstanding then
   * and the last answer inside the window (or the window's start) was at least {@link
   * #RELAY_STALL_BOUND_S} and {@link #RELAY_STALL_SEND_INTERVALS} send intervals before its end.
   * False when the cell did not record the silence or the outstanding count.
   */
  public static boolean stalled(Cell c) {
    Double silence = c.counts().silenceAtWindowEndS();
    Long outstanding = c.counts().outstandingAtWindowEnd();
    if (silence == null || outstanding == null || outstanding == 0) {
      return false;
    }
    double bound = Math.max(RELAY_STALL_BOUND_S, RELAY_STALL_SEND_INTERVALS / c.offeredPerS());
    return silence >= bound;
  }

  /**
   * Steady state is stability, not emptiness: |outstanding_delta| &lt;= tolerance x queue capacity.
   *
   * @return null when the cell has no queue reading (an arm with no queue: never failing), else
   *     whether it was steady; false when the experiment names no queue capacity to judge by
   */
  public static Boolean steady(Cell c, ExperimentIdentity id, VerdictConfig cfg) {
    if (c.outstandingDelta() == null) {
      return null;
    }
    if (id.queueCapacity() == null) {
      return false;
    }
    return Math.abs(c.outstandingDelta()) <= cfg.steadyTolerance() * id.queueCapacity();
  }

  /**
   * Whether the worker was busy: audit_busy_fraction &gt;= the threshold.
   *
   * @return null when the cell has no busy reading, else the comparison
   */
  public static Boolean busy(Cell c, VerdictConfig cfg) {
    return c.auditBusyFraction() == null ? null : c.auditBusyFraction() >= cfg.busyThreshold();
  }

  /** True when any problem excludes the cell from evidence. */
  public static boolean excludes(List<CellProblem> problems) {
    return problems.stream().anyMatch(CellProblem::excludesEvidence);
  }

  /**
   * An arm has a queue (an audit path that can fail) when the runner gave the cell a queue reading.
   * The completed count alone does not say so: a relay may expose the audit counter, flat at zero,
   * in the arm where the path is off.
   */
  static boolean hasAuditPath(Cell c) {
    return c.outstandingDelta() != null || c.auditBusyFraction() != null;
  }

  static boolean onGrid(double rate, List<Double> grid) {
    return grid.stream().anyMatch(r -> close(r, rate));
  }

  static boolean close(double a, double b) {
    return Math.abs(a - b) <= 1e-9 * Math.max(1.0, Math.max(Math.abs(a), Math.abs(b)));
  }

  private static void steadiness(
      Cell c, ExperimentIdentity id, VerdictConfig cfg, List<CellProblem> out) {
    Boolean steady = steady(c, id, cfg);
    if (steady == null || steady) {
      return;
    }
    long delta = c.outstandingDelta();
    boolean control = c.arm().equals(id.controlArm());
    String what;
    if (id.queueCapacity() == null) {
      what =
          "outstanding_delta is "
              + delta
              + " but the experiment names no queue capacity to judge stability by";
    } else {
      double limit = cfg.steadyTolerance() * id.queueCapacity();
      what =
          "outstanding_delta "
              + delta
              + " exceeds the steady tolerance of "
              + Fmt.num(limit)
              + " ("
              + Fmt.num(cfg.steadyTolerance())
              + " x capacity "
              + id.queueCapacity()
              + "): the queue "
              + (delta > 0 ? "banked acceptance credit" : "drained backlog")
              + " during the cell";
    }
    // Banking inflates that arm's accepted/offered. In the treatment arm that can only shrink
    // control minus treatment, so it can hide a separation but never forge one: the cell stays
    // evidence and is barred only from the worker rate. In the control arm it widens the
    // difference, so it is excluded.
    boolean forges = control && (delta > 0 || id.queueCapacity() == null);
    out.add(
        new CellProblem(
            ProblemKind.NOT_STEADY,
            what
                + (forges
                    ? "; a control cell with banked credit could forge a separation, so it is"
                        + " excluded"
                    : "; kept as evidence (it can only hide a separation) but not used for the"
                        + " worker rate"),
            forges));
  }

  /**
   * The client's reading of the steady state: whether the cell is steady by {@link ClientSteady}.
   *
   * @return null when the cell has no window counts (written before they were recorded)
   */
  public static Boolean clientSteady(Cell c, VerdictConfig cfg) {
    ClientSteady.Reading r = ClientSteady.read(c, cfg);
    return r == null ? null : r.steady();
  }

  private static void clientSteadiness(Cell c, VerdictConfig cfg, List<CellProblem> out) {
    ClientSteady.Reading r = ClientSteady.read(c, cfg);
    if (r == null || r.steady()) {
      return;
    }
    // Without a queue reading nothing else can tell a backlog answered in the window from the
    // relay's own pace, in either arm: the cell is excluded. With one, the queue's rule above
    // decides and this reading only marks the cell, so the two never disagree silently.
    boolean governs = c.outstandingDelta() == null;
    out.add(
        new CellProblem(
            ProblemKind.CLIENT_NOT_STEADY,
            "not steady from the client: "
                + String.join("; ", r.failures())
                + (governs
                    ? "; with no queue reading this is the cell's steady check, so it is excluded"
                    : "; a cross-check only: the queue reading decides steadiness"),
            governs));
  }

  private static void admission(Cell c, MetricRole role, ProblemKind kind, List<CellProblem> out) {
    Double d = c.delta(role);
    if (d == null) {
      out.add(notExposed(role, "admission contamination cannot be ruled out"));
    } else if (d > 0) {
      out.add(
          exclude(
              kind,
              role.key()
                  + " moved by "
                  + Fmt.num(d)
                  + " during the cell: the admission limiter, not the ingest path, shaped it"));
    }
  }

  private static CellProblem notExposed(MetricRole role, String consequence) {
    return exclude(
        ProblemKind.COUNTER_NOT_EXPOSED,
        role.key()
            + " is not exposed, so the cell cannot show it was clean ("
            + consequence
            + "); declare it positive-controlled in the profile if the relay only exposes it"
            + " once it moves");
  }

  static CellProblem exclude(ProblemKind kind, String message) {
    return new CellProblem(kind, message, true);
  }
}
