package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.SIX_RATES;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.testing.Property;
import org.junit.jupiter.api.Test;

/**
 * Seeded simulations of one cell at 100/s over 10 s (1000 window slots, one slot per time unit)
 * against a FIFO relay answering at a random fraction rho of the offer, counted the way the
 * generator counts. With a relay that holds its answers until a random instant in the window's
 * first half, the cell must never read above 1 and must be excluded; without the hold, a
 * deterministic relay well below or well above its ceiling must read steady. The seed is printed on
 * failure.
 */
class ClientSteadyPropertyTest {
  private static final VerdictConfig CFG = VerdictConfig.defaults();
  private static final ExperimentIdentity ID = Fixtures.identity(SIX_RATES, 3);
  private static final int N = 1000;

  /** Answer instants of warm-up slots 0..w-1 and window slots w..w+N-1 (slot k sent at k). */
  static double[] answers(int w, double rho, double holdUntil) {
    double[] at = new double[w + N];
    double free = 0;
    for (int k = 0; k < at.length; k++) {
      // FIFO: each answer takes 1/rho slots of the relay's time, after the slot is sent.
      free = Math.max(free, k) + 1 / rho;
      at[k] = Math.max(free, holdUntil);
    }
    return at;
  }

  /** The cell the generator's counts give for those answers. */
  static Cell cell(int w, double[] at) {
    double start = w;
    double mid = w + N / 2.0;
    double end = w + N;
    long inWindow = 0;
    long first = 0;
    long own = 0;
    long ownOutstandingAtEnd = 0;
    long accepted = 0;
    long[] answeredBefore = new long[3];
    double[] instants = {start, mid, end};
    for (int k = 0; k < at.length; k++) {
      boolean windowSlot = k >= w;
      if (at[k] >= start && at[k] < end) {
        inWindow++;
        first += at[k] < mid ? 1 : 0;
        own += windowSlot ? 1 : 0;
      }
      if (windowSlot) {
        accepted++;
        if (k < end && at[k] >= end) {
          ownOutstandingAtEnd++;
        }
      }
      for (int i = 0; i < 3; i++) {
        answeredBefore[i] += at[k] < instants[i] ? 1 : 0;
      }
    }
    long[] outstanding = new long[3];
    for (int i = 0; i < 3; i++) {
      long sentBefore = (long) Math.ceil(instants[i]);
      outstanding[i] = sentBefore - answeredBefore[i];
    }
    return Fixtures.cell(OFF, 100.0, 0, 0, 1.0).toBuilder()
        .attempted(N)
        .warmupSlotsSent((long) w)
        .accepted(accepted)
        .unacknowledged(N - accepted)
        .acceptedInWindow(inWindow)
        .windowCounts(
            first,
            inWindow - first,
            own,
            ownOutstandingAtEnd,
            outstanding[0],
            outstanding[1],
            outstanding[2])
        .build();
  }

  @Test
  void aHeldBacklogNeverReadsAboveOneAndIsAlwaysExcluded() {
    Property.forAll(
        "held backlog: accepted/offered <= 1 and excluded",
        300,
        rnd -> {
          int w = 300 + rnd.nextInt(201);
          double rho = 0.3 + 1.2 * rnd.nextDouble();
          double hold = w + 1 + rnd.nextDouble() * (N / 2.0 - 2);
          Cell c = cell(w, answers(w, rho, hold));
          String what = "w=" + w + " rho=" + rho + " hold=" + hold + " " + c.counts();
          assertThat(c.acceptedOverOffered()).as(what).isLessThanOrEqualTo(1.0);
          assertThat(CellProblems.of(c, ID, CFG, true))
              .as(what)
              .anyMatch(p -> p.kind() == ProblemKind.CLIENT_NOT_STEADY && p.excludesEvidence());
        });
  }

  @Test
  void theOldRuleCreditsTheSameBacklogAboveOne() {
    // Partner: without the window counts, a held backlog at an offer the relay keeps up with reads
    // above 1 and nothing in the cell's rules flags it.
    Property.forAll(
        "held backlog under the old rule",
        100,
        rnd -> {
          int w = 300 + rnd.nextInt(201);
          double rho = 1.2 + 0.3 * rnd.nextDouble();
          double hold = w + 1 + rnd.nextDouble() * (N / 2.0 - 2);
          Cell old = cell(w, answers(w, rho, hold)).toBuilder().noWindowCounts().build();
          assertThat(old.acceptedOverOffered()).isGreaterThan(1.2);
          assertThat(CellProblems.of(old, ID, CFG, true)).isEmpty();
        });
  }

  @Test
  void aRelayWithoutAHoldReadsSteadyBelowAndAboveItsCeiling() {
    Property.forAll(
        "no hold: steady",
        300,
        rnd -> {
          int w = 100 + rnd.nextInt(401);
          boolean saturated = rnd.nextBoolean();
          double rho = saturated ? 0.3 + 0.5 * rnd.nextDouble() : 1.2 + 0.8 * rnd.nextDouble();
          Cell c = cell(w, answers(w, rho, 0));
          ClientSteady.Reading r = ClientSteady.read(c, CFG);
          String what = "w=" + w + " rho=" + rho + " " + r;
          assertThat(r.failures()).as(what).isEmpty();
          assertThat(r.saturated()).as(what).isEqualTo(saturated);
          assertThat(c.acceptedOverOffered()).as(what).isLessThanOrEqualTo(1.0);
          if (saturated) {
            // The ceiling is the relay's rate, to within the answer in service at either edge.
            assertThat(ClientSteady.ceilingPerS(c, CFG)).as(what).isCloseTo(100 * rho, within());
          }
        });
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(0.2);
  }
}
