package dev.ceiling.verdict;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MetricRole;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The defaults round's verdict: per number of identities N, what binds at one offered rate at the
 * relay's stock limiter settings. The limiter's own evidence (refusals for quota, NOTICEs, OK false
 * "rate-limited") is the signal here, not a contamination: every other A/B cell rule still
 * excludes. Pure.
 */
public final class IdentitiesVerdict {
  private IdentitiesVerdict() {}

  /** The share of the offer the limiter must refuse for it to bind: 1%. */
  public static final double LIMITER_BINDS_FRACTION = 0.01;

  /** The profile's limiter setting that is each identity's budget, events/s. */
  public static final String BUDGET_SETTING = "limiter_events_per_sec";

  /** The problems that are the limiter speaking, which this round reads instead of excluding. */
  private static final Set<ProblemKind> LIMITER_EVIDENCE =
      EnumSet.of(ProblemKind.ADMISSION_QUOTA, ProblemKind.RELAY_REJECTIONS, ProblemKind.NOTICES);

  /**
   * One measured cell and the identity it was measured under (N is in its measurement settings).
   *
   * @param cell the cell
   * @param identity its one-cell sweep's identity
   * @param clientEvidence true when the relay exposes no metrics
   */
  public record Measured(Cell cell, ExperimentIdentity identity, boolean clientEvidence) {
    public Measured {
      Objects.requireNonNull(cell, "cell");
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(
          identity.measurement().identities(), "identity.measurement.identities");
    }

    int identities() {
      return identity.measurement().identities();
    }
  }

  /**
   * Judges the round.
   *
   * @param grid the tried N, each once
   * @param offeredPerS the one offered rate
   * @param limiterSettings the profile's limiter settings as the rig ran them
   * @param predictedCeilingPerS the relay's predicted ceiling (all workers), or null
   */
  public static IdentitiesReport judge(
      List<Integer> grid,
      double offeredPerS,
      Integer sourceAddresses,
      List<Measured> measured,
      Map<String, String> limiterSettings,
      Double predictedCeilingPerS,
      VerdictConfig cfg) {
    List<IdentitiesRow> rows = new ArrayList<>();
    for (int n : grid.stream().sorted().distinct().toList()) {
      rows.add(row(n, measured.stream().filter(m -> m.identities() == n).toList(), cfg));
    }
    Integer firstFree = null;
    for (int i = rows.size() - 1; i >= 0; i--) {
      IdentitiesRow.Reading r = rows.get(i).reading();
      if (r == IdentitiesRow.Reading.LIMITER || r == IdentitiesRow.Reading.NOT_MEASURED) {
        break;
      }
      firstFree = rows.get(i).identities();
    }
    Double budget = budget(limiterSettings);
    Double crossover =
        budget == null || predictedCeilingPerS == null ? null : predictedCeilingPerS / budget;
    return new IdentitiesReport(
        offeredPerS,
        sourceAddresses,
        rows,
        firstFree,
        budget,
        predictedCeilingPerS,
        crossover,
        words(offeredPerS, sourceAddresses, rows, firstFree, budget, predictedCeilingPerS));
  }

  /**
   * The problem that keeps {@code m} out of its row, or empty when the row uses it: the first
   * problem that excludes evidence, other than the limiter's own evidence, which this round reads.
   */
  public static Optional<CellProblem> exclusion(Measured m, VerdictConfig cfg) {
    // The client's steady check counts OK-false answers per half of the window, so a cell whose
    // limiter refuses with OK false is judged like any other, half by half: a limiter that starts
    // refusing halfway through the window is not steady. Only a cell written before those halves
    // were recorded fails the check by construction when its limiter refused, and keeps the
    // exemption it had.
    boolean limiterRefused =
        !m.cell().counts().hasRejectedHalves() && refused(m.cell()) >= LIMITER_BINDS_FRACTION;
    return CellProblems.of(m.cell(), m.identity(), cfg, m.clientEvidence()).stream()
        .filter(
            p ->
                p.excludesEvidence()
                    && !LIMITER_EVIDENCE.contains(p.kind())
                    && !(limiterRefused && p.kind() == ProblemKind.CLIENT_NOT_STEADY))
        .findFirst();
  }

  private static IdentitiesRow row(int n, List<Measured> cells, VerdictConfig cfg) {
    List<Measured> used = cells.stream().filter(m -> exclusion(m, cfg).isEmpty()).toList();
    Double ratio = mean(used, m -> m.cell().acceptedOverOffered());
    Double perS = mean(used, m -> m.cell().acceptedInWindow() / m.cell().durationRequestedS());
    Double refused = mean(used, m -> refused(m.cell()));
    List<Measured> withBusy = used.stream().filter(m -> busy(m.cell()) != null).toList();
    Double busy = mean(withBusy, m -> busy(m.cell()));
    IdentitiesRow.Reading reading;
    if (used.isEmpty()) {
      reading = IdentitiesRow.Reading.NOT_MEASURED;
    } else if (refused >= LIMITER_BINDS_FRACTION) {
      reading = IdentitiesRow.Reading.LIMITER;
    } else if (ratio >= 1 - cfg.steadyTolerance()) {
      reading =
          used.stream().anyMatch(m -> filling(m, cfg))
              ? IdentitiesRow.Reading.QUEUE_FILLING
              : IdentitiesRow.Reading.NOTHING;
    } else if (busy != null && busy >= cfg.busyThreshold()) {
      reading = IdentitiesRow.Reading.WORKERS;
    } else {
      reading = IdentitiesRow.Reading.RELAY_CEILING;
    }
    return new IdentitiesRow(n, cells.size(), used.size(), ratio, perS, refused, busy, reading);
  }

  /**
   * Whether the cell's audit backlog grew over its window by more than the steady tolerance of the
   * queue: accepted events went into the queue faster than the workers took them out.
   */
  private static boolean filling(Measured m, VerdictConfig cfg) {
    Long grew = m.cell().outstandingDelta();
    return grew != null
        && grew > 0
        && m.identity().queueCapacity() != null
        && Boolean.FALSE.equals(CellProblems.steady(m.cell(), m.identity(), cfg));
  }

  /**
   * The share of the offered events the limiter refused: the relay's quota counter where the
   * profile maps it, else the generator's NOTICEs and "rate-limited" OK false (NOTICE mode answers
   * no OK, so each NOTICE is one refused event).
   */
  public static double refused(Cell c) {
    Double quota = c.delta(MetricRole.ADMISSION_REJECTIONS_QUOTA);
    double n =
        quota != null ? quota : c.notices() + c.rejectedByPrefix().getOrDefault("rate-limited", 0L);
    return n / Math.max(1.0, c.offeredEvents());
  }

  private static Double busy(Cell c) {
    return c.poolBusyFraction() != null ? c.poolBusyFraction() : c.auditBusyFraction();
  }

  private static Double budget(Map<String, String> settings) {
    String v = settings == null ? null : settings.get(BUDGET_SETTING);
    if (v == null) {
      return null;
    }
    try {
      double d = Double.parseDouble(v);
      return d > 0 && Double.isFinite(d) ? d : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Double mean(List<Measured> cells, ToDoubleFunction<Measured> f) {
    OptionalDouble m = cells.stream().mapToDouble(f).average();
    return m.isPresent() ? m.getAsDouble() : null;
  }

  private static String words(
      double offeredPerS,
      Integer sourceAddresses,
      List<IdentitiesRow> rows,
      Integer firstFree,
      Double budget,
      Double ceiling) {
    String at =
        String.format(
            Locale.ROOT,
            "At %s/s from %s",
            Fmt.num(offeredPerS),
            sourceAddresses == null
                ? "one source address"
                : sourceAddresses + " source address" + (sourceAddresses == 1 ? "" : "es"));
    String each =
        rows.stream()
            .map(
                r ->
                    String.format(
                        Locale.ROOT,
                        "N = %d: %s%s",
                        r.identities(),
                        r.reading().name(),
                        r.acceptedPerS() == null
                            ? ""
                            : String.format(
                                Locale.ROOT,
                                " (%.1f/s accepted, %.0f%% refused by the limiter)",
                                r.acceptedPerS(),
                                100 * r.limiterRefusedFraction())))
            .collect(Collectors.joining("; "));
    String verdict =
        firstFree == null
            ? "the limiter binds at the largest N tried: a real community needs more identities"
                + " than that to reach this rate"
            : rows.get(0).identities() == firstFree
                ? "the limiter binds at no N tried"
                : "the limiter stops binding from N = " + firstFree + " identities";
    String predicted =
        budget == null || ceiling == null
            ? ""
            : String.format(
                Locale.ROOT,
                " (predicted: the relay's ceiling %.1f/s over each identity's budget %s/s, N ="
                    + " %.1f)",
                ceiling,
                Fmt.num(budget),
                ceiling / budget);
    List<String> filling =
        rows.stream()
            .filter(r -> r.reading() == IdentitiesRow.Reading.QUEUE_FILLING)
            .map(r -> Integer.toString(r.identities()))
            .toList();
    String caveat =
        filling.isEmpty()
            ? ""
            : " At N = "
                + String.join(", ", filling)
                + " the audit queue was still filling through the window: the offer was accepted"
                + " into the queue, which does not show that nothing binds (a longer warm-up or a"
                + " smaller queue lets the window see the workers).";
    return at + ", " + verdict + predicted + ". " + each + "." + caveat;
  }
}
