package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Documents written with schema version 1 (flat cells, no warm-up count) still read: the golden
 * files of version 1, checked in under golden/v1/, read to the version 2 values with the fields
 * version 1 did not record set to null.
 */
class SchemaVersion1Test {

  /**
   * The version 2 golden half-run as version 1 knew it: no warm-up slots recorded, no measurement
   * settings in the identity, no drain timeout or control check (read as null).
   */
  private static HalfRun asVersion1(HalfRun h) {
    List<Cell> cells =
        h.cells().stream()
            .map(
                c ->
                    c.toBuilder()
                        .warmupSlotsSent(null)
                        .firstNotice(null)
                        .unknownOkIds(null)
                        .wakeFloorP99Ms(null)
                        .drainTimeout(null)
                        .controlCheck(null)
                        .build())
            .toList();
    return new HalfRun(
        h.schemaVersion(),
        h.identity().withMeasurement(null).withEquivalenceMargin(null),
        h.arm(),
        withoutControlCheck(h.rig()),
        h.startedAt(),
        h.finishedAt(),
        h.complete(),
        h.incompleteReason(),
        cells);
  }

  @Test
  void aVersion1HalfRunReadsWithItsCellsGroupedAndTheWarmUpUnknown() throws Exception {
    HalfRun read = Json.read(GoldenFilesTest.golden("v1/half-run.json"), "v1.json", HalfRun.class);
    assertThat(read).isEqualTo(asVersion1(GoldenFixtures.halfRun()));
    assertThat(read.schemaVersion()).isEqualTo(SchemaVersion.CURRENT);
    assertThat(read.cells()).allSatisfy(c -> assertThat(c.warmupSlotsSent()).isNull());
    assertThat(read.cells().get(1).counts().accepted()).isEqualTo(58_000);
  }

  @Test
  void aVersion1RigDescriptorReads() throws Exception {
    assertThat(
            Json.read(
                GoldenFilesTest.golden("v1/rig-descriptor.json"), "rig.json", RigDescriptor.class))
        .isEqualTo(withoutControlCheck(GoldenFixtures.rig()));
  }

  /** Version 1 descriptors had no control check. */
  private static RigDescriptor withoutControlCheck(RigDescriptor r) {
    return new RigDescriptor(
        r.schemaVersion(),
        r.rigId(),
        r.profile(),
        r.arm(),
        r.relayPid(),
        r.relayStartInstant(),
        r.relayCommand(),
        r.relayLog(),
        r.healthUrl(),
        r.metricsUrl(),
        r.contaminationEvidence(),
        r.targets(),
        r.limiterSettings(),
        r.queueCapacity(),
        r.databaseReset(),
        r.metricMapping(),
        r.positiveControlled(),
        r.relayInfo(),
        r.relaySourceRevision(),
        r.relaySourceDiffDigest(),
        r.relayBinaryDigest(),
        r.generatorVersion(),
        r.generatorJarDigest(),
        null);
  }

  @Test
  void aVersion1FileIsStillReadStrictly() throws Exception {
    String text =
        GoldenFilesTest.golden("v1/half-run.json").replace("\"notices\" : 2,", "\"dropped\" : 2,");
    assertThatThrownBy(() -> Json.read(text, "v1.json", HalfRun.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessage(
            "v1.json (read as schema version 1): $.cells[1].counts.notices: missing field; every"
                + " field must be present (null where not applicable)");
  }

  // --- mutants ------------------------------------------------------------------------------

  @Test
  void mutantVersion3IsRefused() throws Exception {
    String text =
        GoldenFilesTest.golden("half-run.json")
            .replaceFirst("\"schema_version\" : 2,", "\"schema_version\" : 3,");
    assertThatThrownBy(() -> Json.read(text, "v3.json", HalfRun.class))
        .hasMessage("v3.json: $.schema_version: schema_version must be 2, got 3");
  }

  @Test
  void mutantTheVersion2GoldenIsNotTheVersion1File() throws Exception {
    assertThat(GoldenFilesTest.golden("half-run.json"))
        .isNotEqualTo(GoldenFilesTest.golden("v1/half-run.json"));
  }
}
