package dev.ceiling.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import org.junit.jupiter.api.Test;

/**
 * A generator report written before source_addresses (or incomplete) was recorded still reads, the
 * field null.
 */
class GeneratorReportAddedFieldsTest {
  @Test
  void aReportWithoutSourceAddressesReadsItAsNullAndAMisspeltOneIsRefused() throws Exception {
    GeneratorReport r =
        SegmentReports.report(
            0,
            1,
            10,
            SegmentReports.result(
                10, 10, 10, 10, 0, SegmentReports.us(100), SegmentReports.us(200), null));
    String now = Json.write(r);
    assertThat(Json.read(now, "now", GeneratorReport.class).sourceAddresses()).isZero();
    String before = now.replaceAll(",\\s*\"source_addresses\"\\s*:\\s*0", "");
    assertThat(before).doesNotContain("source_addresses");
    assertThat(Json.read(before, "before", GeneratorReport.class).sourceAddresses()).isNull();
    // Partner: a misspelt field is not mistaken for the missing one.
    String misspelt = now.replace("\"source_addresses\"", "\"source_address\"");
    assertThatThrownBy(() -> Json.read(misspelt, "misspelt", GeneratorReport.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessageContaining("source_address");
  }

  @Test
  void aReportWithoutIncompleteReadsAsCompleteAndAMisspeltOneIsRefused() throws Exception {
    GeneratorReport r =
        SegmentReports.report(
            0,
            1,
            10,
            SegmentReports.result(
                10, 10, 10, 10, 0, SegmentReports.us(100), SegmentReports.us(200), null));
    String now = Json.write(r);
    assertThat(now).contains("\"incomplete\"");
    String before = now.replaceAll(",\\s*\"incomplete\"\\s*:\\s*null", "");
    assertThat(before).doesNotContain("incomplete");
    assertThat(Json.read(before, "before", GeneratorReport.class).incomplete()).isNull();
    // Partner: a misspelt field is not mistaken for the missing one.
    String misspelt = now.replace("\"incomplete\"", "\"incomplet\"");
    assertThatThrownBy(() -> Json.read(misspelt, "misspelt", GeneratorReport.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessageContaining("incomplet");
  }
}
