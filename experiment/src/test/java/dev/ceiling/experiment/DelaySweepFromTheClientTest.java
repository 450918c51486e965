package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.rig.proxy.LinkCounters;
import dev.ceiling.verdict.VerdictConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A delay sweep on a relay that maps no worker metric (no audit counter): the fit's ceilings are
 * the cells' client-side ones and the wire count is per OK-true answer. Synthetic cells, worked by
 * hand: 1000 / C = 5 + 3 d ms per event over d = 0, 1, 2, 3 ms (C = 200, 125, 90.9, 71.4/s), three
 * repeats scattered by 0.3% each way, offered 300/s for 10 s after a 2 s warm-up; the relay answers
 * at C throughout, oldest slot first, so the warm-up's backlog (600 - 2C) is answered early in the
 * window and the window's own backlog (3000 - 10C) in the grace period. The link makes 3 turns per
 * OK-true answer, warm-up's included: 3 x (600 + 3000) = 10,800 turns a cell.
 */
class DelaySweepFromTheClientTest {
  static final VerdictConfig CFG = VerdictConfig.defaults();
  private static final double OFFER = 300;
  private static final double WINDOW_S = 10;
  private static final long WARMUP_SLOTS = 600;
  private static final long TURNS = 3 * (WARMUP_SLOTS + 3000);

  static final DelaySweepPlan PLAN =
      DelaySweepPlan.builder()
          .link("db")
          .delaysMs(List.of(0.0, 1.0, 2.0, 3.0))
          .repeats(3)
          .offeredPerS(OFFER)
          .offerRule("given")
          .perPointOffer(null)
          .durationS(WINDOW_S)
          .seed(1)
          .level(0.95)
          .lackOfFitAlpha(0.05)
          .expectedRoundTrips(null)
          .margin(0.5)
          .build();

  /** The reference rig's descriptor with no metrics at all and client-side evidence. */
  static RigDescriptor metricsLess() {
    RigDescriptor d = HalfRuns.rig(HalfRuns.ON);
    return new RigDescriptor(
        d.schemaVersion(),
        d.rigId(),
        d.profile(),
        d.arm(),
        d.relayPid(),
        d.relayStartInstant(),
        d.relayCommand(),
        d.relayLog(),
        d.healthUrl(),
        null,
        RigDescriptor.EVIDENCE_CLIENT,
        d.targets(),
        d.limiterSettings(),
        d.queueCapacity(),
        d.databaseReset(),
        Map.of(),
        d.positiveControlled(),
        d.relayInfo(),
        d.relaySourceRevision(),
        d.relaySourceDiffDigest(),
        d.relayBinaryDigest(),
        d.generatorVersion(),
        d.generatorJarDigest(),
        d.controlCheck());
  }

  static ExperimentIdentity identity() {
    return identity(PLAN.cells().size());
  }

  /** The sweep's identity for a plan of {@code cells} cells (a plan with a holdout has more). */
  static ExperimentIdentity identity(int cells) {
    ExperimentIdentity i = HalfRuns.identity(List.of(OFFER), cells, WINDOW_S);
    return new ExperimentIdentity(
        i.profile(),
        i.treatmentArm(),
        i.controlArm(),
        i.ratesPerS(),
        i.durationS(),
        i.repeats(),
        i.order(),
        i.orderSeed(),
        i.communityHosts(),
        i.limiterSettings(),
        i.queueCapacity(),
        i.generatorIdentity(),
        i.relaySourceRevision(),
        i.relaySourceDiffDigest(),
        i.relayBinaryDigest(),
        i.relayParameters(),
        new MeasurementSettings(2, 5, 10));
  }

  /** One saturated cell answered at {@code ceiling}/s, with every count the generator records. */
  static Cell saturated(DelaySweepPlan.Cell p, double ceiling) {
    long half = Math.round(ceiling * WINDOW_S / 2);
    long offeredHalf = Math.round(OFFER * WINDOW_S / 2);
    long atStart = WARMUP_SLOTS - Math.round(2 * ceiling);
    long growth = offeredHalf - half;
    long own = 2 * half - atStart;
    return HalfRuns.cell(HalfRuns.ON, OFFER, p.repeat(), p.sequence(), WINDOW_S, 1.0)
        .counterDeltas(Map.of())
        .warmupSlotsSent(WARMUP_SLOTS)
        .acceptedInWindow(2 * half)
        .windowCounts(
            half, half, own, 2 * offeredHalf - own, atStart, atStart + growth, atStart + 2 * growth)
        .build();
  }

  /** The ceiling on the known line, scattered by repeat. */
  static double ceiling(DelaySweepPlan.Cell p) {
    return 1000 / (5 + 3 * p.addedDelayMs()) * (1 + 0.003 * (p.repeat() - 1));
  }

  private static DelaySweepReport sweep(UnaryOperator<Cell> edit) {
    List<DelaySweepAnalysis.Measured> measured = new ArrayList<>();
    for (DelaySweepPlan.Cell p : PLAN.cells()) {
      measured.add(
          new DelaySweepAnalysis.Measured(
              p,
              edit.apply(saturated(p, ceiling(p))),
              new LinkCounters(1, 0, TURNS, 0, 0, 0, 0),
              null));
    }
    return DelaySweepAnalysis.report(
        "nostream", metricsLess(), identity(), PLAN, measured, DelaySweepAnswerTest.DONE, CFG);
  }

  @Test
  void theClientsCeilingsGiveTheKnownSlopeAndTheWireCountPerOkTrueAnswer() {
    DelaySweepReport r = sweep(c -> c);
    assertThat(r.cells()).allMatch(DelaySweepCell::ceilingUsed);
    assertThat(r.cells()).allMatch(DelaySweepCell::ceilingFromClient);
    assertThat(r.ceilingFrom()).isEqualTo(CeilingSource.CLIENT);
    assertThat(r.fit().established()).isTrue();
    assertThat(r.fit().roundTripsPerEvent().value()).isCloseTo(3.0, within(0.02));
    assertThat(r.fit().roundTripsPerEvent().lower()).isLessThan(3.0);
    assertThat(r.fit().roundTripsPerEvent().upper()).isGreaterThan(3.0);
    assertThat(r.wireTurnsPerOkTrue()).isCloseTo(3.0, within(1e-9));
    // The audit-based field keeps its meaning: there are no audit entries, so no count there.
    assertThat(r.wireTurnsPerEvent()).isNull();
    assertThat(r.cells()).allMatch(c -> c.okTrueAnswers() == 3600.0);
    assertThat(r.answer())
        .startsWith("the OK path makes 3.0 [")
        .contains("on link 'db' (ceiling from the client; wire count 3.00 per OK-true answer)");
  }

  @Test
  void withoutTheClientsReadingNoCellIsUsed() {
    DelaySweepReport r = sweep(c -> c.toBuilder().noWindowCounts().build());
    assertThat(r.cells()).noneMatch(DelaySweepCell::ceilingUsed);
    assertThat(r.fit()).isNull();
    assertThat(r.wireTurnsPerOkTrue()).isNull();
    assertThat(r.answer())
        .startsWith("no round-trip count on link 'db' (ceiling from the client; no wire count)")
        .contains("(not used: no reading from the client (window counts not recorded) in 12)");
  }

  @Test
  void aCellOfferedBelowItsCeilingIsNotSaturatedFromTheClient() {
    // The relay answers all 300/s: flat outstanding count, so no ceiling is read from the client.
    DelaySweepReport r =
        sweep(
            c -> {
              DelaySweepPlan.Cell p =
                  PLAN.cells().stream()
                      .filter(q -> q.sequence() == c.sequence())
                      .findFirst()
                      .orElseThrow();
              return p.addedDelayMs() == 0.0 ? flat(c) : c;
            });
    assertThat(r.cells().stream().filter(c -> !c.ceilingUsed()))
        .hasSize(3)
        .allMatch(c -> "not saturated from the client".equals(c.notUsed()));
    assertThat(DelaySweepAnalysis.whyUnused(r.cells()))
        .isEqualTo(" (not used: not saturated from the client in 3)");
  }

  @Test
  void aCellWhoseRelayStalledIsNotReadAsASlowerRelay() {
    // The relay said nothing for the last 3 s of the window at delay 0 with events owed: a stop.
    DelaySweepReport r =
        sweep(
            c -> {
              DelaySweepPlan.Cell p =
                  PLAN.cells().stream()
                      .filter(q -> q.sequence() == c.sequence())
                      .findFirst()
                      .orElseThrow();
              return c.toBuilder()
                  .silenceAtWindowEndS(p.addedDelayMs() == 0.0 ? 3.0 : 0.01)
                  .build();
            });
    assertThat(r.cells().stream().filter(c -> !c.ceilingUsed()))
        .hasSize(3)
        .allMatch(
            c ->
                c.problems().stream()
                    .anyMatch(
                        x ->
                            x.kind() == dev.ceiling.verdict.ProblemKind.RELAY_STALLED
                                && x.excludesEvidence()));
    assertThat(DelaySweepAnalysis.whyUnused(r.cells()))
        .isEqualTo(" (not used: RELAY_STALLED in 3)");
    // Partner: the same cells with the relay answering to the end are all used.
    DelaySweepReport answering = sweep(c -> c.toBuilder().silenceAtWindowEndS(0.01).build());
    assertThat(answering.cells()).allMatch(DelaySweepCell::ceilingUsed);
  }

  private static Cell flat(Cell c) {
    return c.toBuilder()
        .acceptedInWindow(3000)
        .windowCounts(1500, 1500, 2990, 10, 10, 10, 10)
        .build();
  }

  @Test
  void theWireCountOverTheOfferInsteadOfTheOkTrueAnswersIsNotTheCount() {
    // Partner: the same turns over the offered events (offered x window) read 3.6, not 3.
    DelaySweepReport r = sweep(c -> c);
    double turns = 0;
    double offered = 0;
    for (DelaySweepCell c : r.cells()) {
      turns += c.link().turns();
      offered += c.cell().offeredEvents();
    }
    assertThat(turns / offered).isNotCloseTo(3.0, within(0.1));
  }

  @Test
  void theSourcesSurviveAReadBackAndAFileWithoutThemStillReads() throws Exception {
    DelaySweepReport r = sweep(c -> c);
    String json = Json.write(r);
    assertThat(json).contains("\"ceiling_from\"").contains("\"ok_true_answers\"");
    // The file's word is the one every file since the field was added says.
    assertThat(json).containsPattern("\"ceiling_from\"\\s*:\\s*\"client\"");
    DelaySweepReport back = Json.read(json, "client.json", DelaySweepReport.class);
    assertThat(back.ceilingFrom()).isEqualTo(CeilingSource.CLIENT);
    assertThat(back.wireTurnsPerOkTrue()).isEqualTo(r.wireTurnsPerOkTrue());
    assertThat(back.cells()).isEqualTo(r.cells());
    // A file written before the fields existed has none of them: it reads, each as null.
    String older =
        json.replaceAll(
            ",\\s*\"(ceiling_from|wire_turns_per_ok_true|client_ceiling_per_s|ok_true_answers"
                + "|turns_per_ok_true|not_used)\"\\s*:\\s*(\"[^\"]*\"|[-0-9.eE]+|null)",
            "");
    assertThat(older).doesNotContain("ok_true_answers").doesNotContain("ceiling_from");
    DelaySweepReport old = Json.read(older, "older.json", DelaySweepReport.class);
    assertThat(old.ceilingFrom()).isNull();
    assertThat(old.cells()).allMatch(c -> !c.ceilingFromClient() && c.okTrueAnswers() == null);
  }

  @Test
  void aMisspeltSourceFieldIsRefused() {
    // Partner: only the fields added by name are filled; any other unknown field is refused.
    String json = Json.write(sweep(c -> c)).replace("\"ceiling_from\"", "\"ceiling_form\"");
    assertThatThrownBy(() -> Json.read(json, "misspelt.json", DelaySweepReport.class))
        .isInstanceOf(ReportFormatException.class);
  }

  private static org.assertj.core.data.Offset<Double> within(double d) {
    return org.assertj.core.data.Offset.offset(d);
  }
}
