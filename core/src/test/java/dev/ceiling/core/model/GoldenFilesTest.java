package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;

/**
 * Seals the JSON format of the shared model: each representative value must serialize byte for byte
 * to its checked-in file under src/test/resources/golden/, under more than one default Locale and
 * time zone, and read back equal.
 *
 * <p>A deliberate format change: rerun with {@code -Dceiling.golden.update=true} (from the core
 * module directory), review the diff of the golden files, and commit them with the change.
 */
class GoldenFilesTest {

  record Golden(String file, Object value, Class<?> type) {}

  static List<Golden> goldens() {
    return List.of(
        new Golden("cell.json", GoldenFixtures.fullCell(), Cell.class),
        new Golden("cell-not-applicable.json", GoldenFixtures.sparseCell(), Cell.class),
        new Golden("target.json", GoldenFixtures.target(), Target.class),
        new Golden("experiment-identity.json", GoldenFixtures.identity(), ExperimentIdentity.class),
        new Golden("rig-descriptor.json", GoldenFixtures.rig(), RigDescriptor.class),
        new Golden(
            "rig-descriptor-attached.json", GoldenFixtures.attachedRig(), RigDescriptor.class),
        new Golden("half-run.json", GoldenFixtures.halfRun(), HalfRun.class));
  }

  static String golden(String file) throws IOException {
    try (InputStream in = GoldenFilesTest.class.getResourceAsStream("/golden/" + file)) {
      assertThat(in).as("golden file %s (run with -Dceiling.golden.update=true)", file).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void everyDocumentMatchesItsGoldenFileUnderSeveralLocalesAndZones() throws IOException {
    if (Boolean.getBoolean("ceiling.golden.update")) {
      for (Golden g : goldens()) {
        Files.writeString(
            Path.of("src/test/resources/golden", g.file()),
            Json.write(g.value()),
            StandardCharsets.UTF_8);
      }
    }
    Locale locale = Locale.getDefault();
    TimeZone zone = TimeZone.getDefault();
    try {
      for (Locale l : List.of(Locale.GERMANY, Locale.US, Locale.forLanguageTag("tr-TR"))) {
        for (String z : List.of("UTC", "America/New_York", "Asia/Kolkata")) {
          Locale.setDefault(l);
          TimeZone.setDefault(TimeZone.getTimeZone(z));
          for (Golden g : goldens()) {
            assertThat(Json.write(g.value()))
                .as("%s under %s, %s", g.file(), l, z)
                .isEqualTo(golden(g.file()));
          }
        }
      }
    } finally {
      Locale.setDefault(locale);
      TimeZone.setDefault(zone);
    }
  }

  @Test
  void everyGoldenFileReadsBackEqual() throws Exception {
    for (Golden g : goldens()) {
      assertThat(Json.read(golden(g.file()), "golden/" + g.file(), g.type()))
          .as(g.file())
          .isEqualTo(g.value());
    }
  }

  @Test
  void thePinnedHistogramIsTheFixtureHistogram() {
    LatencySummary recomputed = LatencySummary.of(GoldenFixtures.histogram());
    LatencySummary pinned = GoldenFixtures.latency();
    assertThat(pinned.histogram()).isEqualTo(GoldenFixtures.histogram());
    assertThat(
            List.of(
                pinned.count(),
                pinned.p50Ms(),
                pinned.p90Ms(),
                pinned.p99Ms(),
                pinned.p999Ms(),
                pinned.maxMs()))
        .isEqualTo(
            List.of(
                recomputed.count(),
                recomputed.p50Ms(),
                recomputed.p90Ms(),
                recomputed.p99Ms(),
                recomputed.p999Ms(),
                recomputed.maxMs()));
    assertThat(GoldenFixtures.emptyLatency().histogram().getTotalCount()).isZero();
  }

  @Test
  void theCheckedInHalfRunHasItsSchemaVersionFirst() throws IOException {
    assertThat(golden("half-run.json")).startsWith("{\n  \"schema_version\" : 2,\n");
    assertThat(golden("rig-descriptor.json")).startsWith("{\n  \"schema_version\" : 2,\n");
  }

  // --- mutants: the comparison and the reader must notice a changed format ------------------

  @Test
  void mutantValueDoesNotMatchTheGoldenFile() throws IOException {
    Cell changed = GoldenFixtures.fullCell().toBuilder().notices(3).build();
    assertThat(Json.write(changed)).isNotEqualTo(golden("cell.json"));
    assertThat(Json.writeLine(GoldenFixtures.fullCell())).isNotEqualTo(golden("cell.json"));
  }

  @Test
  void mutantGoldenFileWithOneFieldRenamedFailsToRead() throws IOException {
    String renamed = golden("cell.json").replace("\"notices\" :", "\"notice_count\" :");
    assertThat(renamed).isNotEqualTo(golden("cell.json"));
    assertThatThrownBy(() -> Json.read(renamed, "golden/cell.json", Cell.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessage(
            "golden/cell.json: $.counts.notices: missing field; every field must be present (null"
                + " where not applicable)");
  }

  @Test
  void mutantHalfRunWithADerivedPropertyFailsToRead() throws IOException {
    // HalfRun.isTreatment() used to be written as "treatment", which the strict reader rejects.
    String withDerived =
        golden("half-run.json")
            .replaceFirst(
                "\"schema_version\" : 2,", "\"schema_version\" : 2, \"treatment\" : true,");
    assertThatThrownBy(() -> Json.read(withDerived, "half-run.json", HalfRun.class))
        .hasMessageStartingWith("half-run.json: $.treatment: unknown field 'treatment'");
  }
}
