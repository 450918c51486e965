package dev.ceiling.verdict;

import static dev.ceiling.verdict.Fixtures.OFF;
import static dev.ceiling.verdict.Fixtures.ON;
import static dev.ceiling.verdict.Fixtures.SIX_RATES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.core.model.RigDescriptor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CombineTest {
  /** A combine implementation under test. */
  interface Combiner {
    CombinedRun combine(HalfRun a, HalfRun b) throws CombineException;
  }

  private static ExperimentIdentity id(double durationS) {
    return Fixtures.identity(SIX_RATES, 3, durationS);
  }

  private static HalfRun half(ExperimentIdentity id, String arm) {
    return Fixtures.half(id, arm, Fixtures.constant(6, 3, 1.0));
  }

  @Test
  void orderOfTheFilesDoesNotMatter() throws CombineException {
    HalfRun on = half(id(10), ON);
    HalfRun off = half(id(10), OFF);
    CombinedRun ab = Combine.combine(on, off);
    CombinedRun ba = Combine.combine(off, on);
    assertThat(ab).isEqualTo(ba);
    assertThat(ab.treatment().arm()).isEqualTo(ON);
    assertThat(ab.control().arm()).isEqualTo(OFF);
  }

  private static void mismatchedDurationsRefused(Combiner c) {
    HalfRun on = half(id(10), ON);
    HalfRun off = Fixtures.half(id(20), OFF, List.of());
    CombineException e = catchThrowableOfType(CombineException.class, () -> c.combine(on, off));
    assertThat(e).as("combine across 10 s and 20 s halves must be refused").isNotNull();
    assertThat(e.mismatches()).containsExactly("duration_s differs: 10.0 vs 20.0");
  }

  @Test
  void combineAcrossMismatchedDurationsIsRefused() {
    mismatchedDurationsRefused(Combine::combine);

    // Mutant: a combine that checks only the rate grid.
    Combiner ratesOnly =
        (a, b) -> {
          if (!a.identity().ratesPerS().equals(b.identity().ratesPerS())) {
            throw new CombineException(List.of("rates_per_s differs"));
          }
          HalfRun t = a.isTreatment() ? a : b;
          HalfRun c = a.isTreatment() ? b : a;
          return new CombinedRun(t.identity(), t, Fixtures.half(t.identity(), OFF, c.cells()));
        };
    assertThatThrownBy(() -> mismatchedDurationsRefused(ratesOnly))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void everyMismatchedFieldIsListed() {
    ExperimentIdentity a = id(10);
    ExperimentIdentity b =
        new ExperimentIdentity(
            "other",
            ON,
            OFF,
            List.of(100.0, 200.0),
            5.0,
            2,
            "shuffled",
            7L,
            List.of("b.localhost"),
            Map.of("human_ws_events_per_sec", "10"),
            500,
            "ceiling 0.2.0",
            "rev2",
            "sha256:diff",
            "sha256:other",
            java.util.Map.of(),
            new MeasurementSettings(5, 1, 10));
    CombineException e =
        catchThrowableOfType(
            CombineException.class,
            () -> Combine.combine(half(a, ON), Fixtures.half(b, OFF, List.of())));
    assertThat(e.mismatches())
        .extracting(m -> m.substring(0, m.indexOf(' ')))
        .containsExactly(
            "profile",
            "rates_per_s",
            "duration_s",
            "repeats",
            "order",
            "order_seed",
            "community_hosts",
            "limiter_settings",
            "queue_capacity",
            "generator_identity",
            "relay_source_revision",
            "relay_source_diff_digest",
            "relay_binary_digest",
            "measurement",
            // b's identity says 500 / 10, but the fixture's rig ran 1000 / 100000.
            "the",
            "the");
    assertThat(e.getMessage()).startsWith("cannot combine these half-runs (16 problems):\n  ");
  }

  @Test
  void halvesMeasuredWithADifferentWarmUpGraceOrLagBoundAreRefused() throws CombineException {
    ExperimentIdentity a = id(10).withMeasurement(new MeasurementSettings(2, 2, 10));
    ExperimentIdentity b = id(10).withMeasurement(new MeasurementSettings(0, 30, 50));
    CombineException e =
        catchThrowableOfType(
            CombineException.class, () -> Combine.combine(half(a, ON), half(b, OFF)));
    assertThat(e).isNotNull();
    assertThat(e.mismatches())
        .containsExactly(
            "measurement differs: MeasurementSettings[warmupS=2.0, graceS=2.0,"
                + " sendLagBoundMs=10.0, identities=null, sourceAddresses=null] vs MeasurementSettings[warmupS=0.0,"
                + " graceS=30.0, sendLagBoundMs=50.0, identities=null, sourceAddresses=null]");
    // Mutant partner: the same settings on both halves combine.
    assertThat(Combine.combine(half(a, ON), half(a, OFF)).identity().measurement())
        .isEqualTo(new MeasurementSettings(2, 2, 10));
  }

  @Test
  void aRigThatDisagreesWithItsIdentityIsRefused() throws CombineException {
    HalfRun off = half(id(10), OFF);
    HalfRun small =
        new HalfRun(
            off.schemaVersion(),
            off.identity(),
            OFF,
            Fixtures.rig(OFF, 5, Map.of("human_ws_events_per_sec", "10")),
            off.startedAt(),
            off.finishedAt(),
            true,
            null,
            off.cells());
    CombineException e =
        catchThrowableOfType(
            CombineException.class, () -> Combine.combine(half(id(10), ON), small));
    assertThat(e).isNotNull();
    assertThat(e.mismatches())
        .containsExactly(
            "the 'off' half's rig has queue_capacity 5 but its identity says 1000",
            "the 'off' half's rig has limiter_settings {human_ws_events_per_sec=10} but its"
                + " identity says {human_ws_events_per_sec=100000}");
    // Mutant partner: the rig that agrees combines.
    assertThat(Combine.combine(half(id(10), ON), off).control()).isEqualTo(off);
  }

  @Test
  void twoHalvesOfTheSameArmAreRefused() {
    CombineException e =
        catchThrowableOfType(
            CombineException.class, () -> Combine.combine(half(id(10), ON), half(id(10), ON)));
    assertThat(e.mismatches())
        .containsExactly(
            "both halves are the treatment arm ('on' and 'on'): a combined run needs one of each");
  }

  @Test
  void aHalfMeasuredOnTheOtherArmsRigIsRefused() {
    HalfRun off = half(id(10), OFF);
    HalfRun mislabelled =
        new HalfRun(
            off.schemaVersion(),
            off.identity(),
            OFF,
            Fixtures.rig(ON),
            off.startedAt(),
            off.finishedAt(),
            true,
            null,
            off.cells());
    CombineException e =
        catchThrowableOfType(
            CombineException.class, () -> Combine.combine(half(id(10), ON), mislabelled));
    assertThat(e.mismatches())
        .containsExactly("the 'off' half was measured on a rig running arm 'on'");
  }

  /** {@code h} re-labelled as measured without metrics: the generator's evidence alone. */
  private static HalfRun clientSide(HalfRun h) {
    RigDescriptor m = h.rig();
    RigDescriptor client =
        new RigDescriptor(
            m.schemaVersion(),
            m.rigId(),
            m.profile(),
            m.arm(),
            m.relayPid(),
            m.relayStartInstant(),
            m.relayCommand(),
            m.relayLog(),
            m.healthUrl(),
            null,
            RigDescriptor.EVIDENCE_CLIENT,
            m.targets(),
            m.limiterSettings(),
            m.queueCapacity(),
            m.databaseReset(),
            Map.of(),
            m.positiveControlled(),
            m.relayInfo(),
            m.relaySourceRevision(),
            m.relaySourceDiffDigest(),
            m.relayBinaryDigest(),
            m.generatorVersion(),
            m.generatorJarDigest(),
            null);
    return new HalfRun(
        h.schemaVersion(),
        h.identity(),
        h.arm(),
        client,
        h.startedAt(),
        h.finishedAt(),
        h.complete(),
        h.incompleteReason(),
        h.cells());
  }

  @Test
  void halvesWithDifferentContaminationEvidenceAreRefused() throws CombineException {
    HalfRun on = half(id(10), ON);
    HalfRun off = half(id(10), OFF);
    // Both client-side, or both metrics: combined.
    assertThat(
            Combine.combine(clientSide(on), clientSide(off)).treatment().rig().clientSideEvidence())
        .isTrue();
    assertThat(Combine.combine(on, off).treatment().rig().clientSideEvidence()).isFalse();

    // Mutant: one half from the counters, the other from the generator alone.
    CombineException e =
        catchThrowableOfType(CombineException.class, () -> Combine.combine(on, clientSide(off)));
    assertThat(e).as("a metrics half with a client-side half must be refused").isNotNull();
    assertThat(e.mismatches())
        .containsExactly(
            "contamination_evidence differs: 'on' half metrics vs 'off' half client (the"
                + " halves' cells were excluded by different evidence)");

    // Listed beside every other mismatch, not instead of them.
    CombineException both =
        catchThrowableOfType(
            CombineException.class,
            () -> Combine.combine(clientSide(on), Fixtures.half(id(20), OFF, List.of())));
    assertThat(both.mismatches())
        .extracting(m -> m.substring(0, m.indexOf(' ')))
        .containsExactly("duration_s", "contamination_evidence");
  }

  @Test
  void combinedRunGuardsItsInvariants() {
    HalfRun on = half(id(10), ON);
    HalfRun off = half(id(20), OFF);
    assertThatThrownBy(() -> new CombinedRun(id(10), on, off))
        .hasMessageContaining("use Combine.combine to see which fields differ");
    assertThatThrownBy(() -> new CombinedRun(id(10), half(id(10), OFF), on))
        .hasMessage("treatment.arm must be 'on', got 'off'");
  }
}
