package dev.ceiling.prom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrometheusTextTest {

  private static MetricsException failure(String body) {
    try {
      PrometheusText.parse(body);
    } catch (MetricsException e) {
      return e;
    }
    throw new AssertionError("expected a MetricsException for:\n" + body);
  }

  @Test
  void parsesEveryConstructTheFormatAllows() throws MetricsException {
    String body =
        """
        # a plain comment
        #HELP no_blank_before_keyword is still HELP

        \s\s\s
        # TYPE req_total counter
        # HELP req_total Requests with \\\\ and \\n inside.
        req_total{code="200",path="/a \\"b\\" \\\\ c\\nd"} 1027 1395066363000
        req_total { code = "400" , } 3
        \treq_total{code="500"}\t-0.5e-3 \s
        # TYPE lat histogram
        lat_bucket{le="0.05"} 24054
        lat_bucket{le="+Inf"} 144320
        lat_sum 53423
        lat_count 144320
        # TYPE rpc summary
        rpc{quantile="0.5"} 4773
        rpc{quantile="0.99"} NaN
        rpc_sum 1.7560473e+07
        rpc_count 2693
        weird{a="日本😀"} +Inf -1
        down -Inf
        # TYPE empty gauge
        """;
    List<MetricFamily> families = PrometheusText.parse(body);
    assertThat(families)
        .extracting(MetricFamily::name)
        .containsExactly(
            "no_blank_before_keyword", "req_total", "lat", "rpc", "weird", "down", "empty");
    assertThat(families)
        .extracting(MetricFamily::type)
        .containsExactly(
            "untyped", "counter", "histogram", "summary", "untyped", "untyped", "gauge");
    MetricFamily req = families.get(1);
    assertThat(req.help()).isEqualTo("Requests with \\ and \n inside.");
    assertThat(req.samples())
        .containsExactly(
            new Sample(
                "req_total",
                Map.of("code", "200", "path", "/a \"b\" \\ c\nd"),
                1027,
                1395066363000L),
            new Sample("req_total", Map.of("code", "400"), 3, null),
            new Sample("req_total", Map.of("code", "500"), -0.5e-3, null));
    assertThat(families.get(2).samples())
        .extracting(Sample::name)
        .containsExactly("lat_bucket", "lat_bucket", "lat_sum", "lat_count");
    assertThat(families.get(3).samples().get(1).value()).isNaN();
    assertThat(families.get(4).samples().get(0))
        .isEqualTo(new Sample("weird", Map.of("a", "日本😀"), Double.POSITIVE_INFINITY, -1L));
    assertThat(families.get(5).samples().get(0).value()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(families.get(6).samples()).isEmpty();
    assertThat(families.get(0).help()).isEqualTo("is still HELP");
  }

  @Test
  void emptyBodyHasNoFamilies() throws MetricsException {
    assertThat(PrometheusText.parse("")).isEmpty();
  }

  @Test
  void labelsAreSortedAndImmutable() throws MetricsException {
    Sample s = PrometheusText.parse("m{b=\"2\",a=\"1\"} 1\n").get(0).samples().get(0);
    assertThat(s.labels().keySet()).containsExactly("a", "b");
    assertThatThrownBy(() -> s.labels().put("c", "3"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  /** Each malformed body, the exact line:column and what was expected. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          duplicate TYPE                | # TYPE a counter↵# TYPE a gauge↵                 | 2:8: second TYPE line for 'a' (first at line 1)
          duplicate HELP                | # HELP a x↵# HELP a y↵                          | 2:8: second HELP line for 'a' (first at line 1)
          TYPE after sample             | a 1↵# TYPE a counter↵                             | 2:8: TYPE for 'a' must come before its first sample (line 1)
          unknown type                  | # TYPE a countr↵                                   | 1:10: expected a type (counter, gauge, histogram, summary, untyped) for 'a', got 'countr'
          missing type                  | # TYPE a↵                                          | 1:9: expected a type (counter, gauge, histogram, summary, untyped) for 'a', got end of line
          TYPE trailing token           | # TYPE a counter x↵                                | 1:18: expected end of line after the type, got 'x'
          family split in two           | a 1↵b 1↵a 2↵                                   | 3:1: sample 'a' belongs to untyped 'a' at lines 1-1, whose block has ended; all lines of a family must be one group
          histogram interrupted         | # TYPE h histogram↵h_bucket{le="1"} 1↵x 1↵h_count 1↵ | 4:1: sample 'h_count' belongs to histogram 'h' at lines 1-2, whose block has ended; all lines of a family must be one group
          bare name inside histogram    | # TYPE h histogram↵h 1↵                           | 2:1: sample 'h' does not fit histogram 'h' (expected h_bucket, h_count or h_sum)
          TYPE for ended family         | # TYPE a gauge↵a 1↵b 1↵# TYPE a gauge↵          | 4:8: family 'a' already appeared at lines 1-2; all lines of a family must be one group
          bare name after histogram ended | # TYPE h histogram↵h_count 1↵x 1↵h 2↵ | 4:1: sample 'h' does not fit histogram 'h' (expected h_bucket, h_count or h_sum), and already appeared at lines 1-2; all lines of a family must be one group
          TYPE for a sample name        | # TYPE s summary↵s_count 1↵x 1↵# TYPE s_count gauge↵ | 4:8: TYPE for 's_count', which is a sample name of summary 's' at lines 1-2; all lines of a family must be one group
          bucket without le             | # TYPE h histogram↵h_bucket{x="1"} 1↵             | 2:9: expected label 'le' on histogram sample 'h_bucket', got only [x]
          bucket with bad le            | # TYPE h histogram↵h_bucket{le="big"} 1↵          | 2:14: expected a float in label 'le' of 'h_bucket', got 'big'
          le on histogram count         | # TYPE h histogram↵h_count{le="1"} 1↵             | 2:9: label 'le' is reserved for the histogram's buckets/quantiles, found on 'h_count'
          quantile missing              | # TYPE s summary↵s 1↵                             | 2:3: expected label 'quantile' on summary sample 's', got no labels
          bad escape                    | a{x="1\\t"} 2↵                                     | 1:7: invalid escape '\\t' in the value of label 'x' (allowed: \\\\, \\", \\n)
          bad HELP escape               | # HELP a x\\"y↵                                    | 1:11: invalid escape '\\"' in the HELP of 'a' (allowed: \\\\, \\n)
          missing closing brace         | a{x="1" 2↵                                         | 1:9: expected ',' or '}' after the value of label 'x', got '2'
          brace never closed            | a{x="1",↵                                          | 1:9: expected a label name or '}' to close the '{' at column 2, got end of line
          quote never closed            | a{x="1} 2↵                                         | 1:10: expected '"' to close the value of label 'x' opened at column 5, got end of line
          missing equals                | a{x "1"} 2↵                                        | 1:5: expected '=' after label name 'x', got '"'
          unquoted value                | a{x=1} 2↵                                          | 1:5: expected '"' to open the value of label 'x', got '1'
          duplicate label               | a{x="1",x="2"} 2↵                                  | 1:9: duplicate label name 'x'
          garbage value                 | a 12abc↵                                           | 1:3: expected a float value (e.g. 1, -2.5e3, +Inf, -Inf, NaN) for 'a', got '12abc'
          hex value                     | a 0x1p3↵                                           | 1:3: expected a float value (e.g. 1, -2.5e3, +Inf, -Inf, NaN) for 'a', got '0x1p3'
          overflowing value             | a 1e999↵                                           | 1:3: expected a float value (e.g. 1, -2.5e3, +Inf, -Inf, NaN) for 'a', got '1e999'
          signed NaN                    | a -NaN↵                                            | 1:3: expected a float value (e.g. 1, -2.5e3, +Inf, -Inf, NaN) for 'a', got '-NaN'
          missing value                 | a{x="1"}↵                                          | 1:9: expected a value after 'a', got end of line
          fractional timestamp          | a 1 1.5↵                                           | 1:5: expected a timestamp (integer milliseconds) or end of line after the value, got '1.5'
          timestamp overflow            | a 1 9223372036854775808↵                           | 1:5: expected a timestamp (integer milliseconds) or end of line after the value, got '9223372036854775808'
          extra token                   | a 1 2 3↵                                           | 1:7: expected end of line after the timestamp, got '3'
          bad metric name               | 1a 1↵                                              | 1:1: expected a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*) or '#', got '1'
          bad label name                | a{1x="1"} 1↵                                       | 1:3: expected a label name ([a-zA-Z_][a-zA-Z0-9_]*) or '}', got '1'
          duplicate series              | a{x="1"} 1↵a{x="1"} 2↵                           | 2:1: duplicate series a{x="1"} (first at line 1)
          CRLF                          | a 1␍↵                                            | 1:4: expected a timestamp (integer milliseconds) or end of line after the value, got carriage return (0.0.4 lines end with a bare line feed)
          truncated body                | a 1↵b 2                                            | 2:4: expected a line feed at the end of the last line (is the body truncated?), got end of body
          unicode column                | a{x="日本😀" 2↵                                     | 1:11: expected ',' or '}' after the value of label 'x', got '2'
          """)
  void malformedBodiesNameLineColumnAndExpectation(String what, String body, String message) {
    MetricsException e = failure(unescape(body.strip()));
    assertThat(e.getMessage()).as(what).isEqualTo(unescape(message.strip()));
    String[] lc = message.strip().split(":", 3);
    assertThat(e.line()).isEqualTo(Integer.parseInt(lc[0]));
    assertThat(e.column()).isEqualTo(Integer.parseInt(lc[1]));
  }

  /** Test-table placeholders: ↵ is a line feed, ␍ a carriage return. */
  private static String unescape(String s) {
    return s.replace('↵', '\n').replace('␍', '\r');
  }

  @Test
  void reportsEveryProblemAtOnceUpToTheCap() {
    MetricsException e = failure("a 1x\nb{ 2\nc 3\n# TYPE c gauge\n");
    assertThat(e.getMessage())
        .isEqualTo(
            """
            1:3: expected a float value (e.g. 1, -2.5e3, +Inf, -Inf, NaN) for 'a', got '1x'
            2:4: expected a label name ([a-zA-Z_][a-zA-Z0-9_]*) or '}', got '2'
            4:8: TYPE for 'c' must come before its first sample (line 3)""");
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 13; i++) {
      many.append("x").append(i).append(" bad\n");
    }
    MetricsException capped = failure(many.toString());
    assertThat(capped.getMessage().split("\n")).hasSize(11);
    assertThat(capped.getMessage()).endsWith("\n(and 3 more problems)");
  }

  @ParameterizedTest
  @CsvSource({
    "1,1.0",
    "-2.5e3,-2500.0",
    "+1,1.0",
    ".5,0.5",
    "5.,5.0",
    "1E5,100000.0",
    "+Inf,Infinity",
    "-inf,-Infinity",
    "Infinity,Infinity",
    "nan,NaN",
    "NaN,NaN"
  })
  void acceptsGoFloatSyntax(String token, double expected) {
    assertThat(PrometheusText.parseFloat(token)).isEqualTo(Double.valueOf(expected));
  }

  @ParameterizedTest
  @CsvSource({
    "''", "e5", "1e", "1.2.3", "--1", "+NaN", "0x10", "1_000", "1f", "1d", "Inf1", "' 1'"
  })
  void rejectsWhatGoWouldRejectOrWeRefuse(String token) {
    assertThat(PrometheusText.parseFloat(token)).isNull();
  }
}
