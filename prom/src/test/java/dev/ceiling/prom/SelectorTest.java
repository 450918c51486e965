package dev.ceiling.prom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Instant;
import java.util.Map;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SelectorTest {
  private static final String BODY =
      """
      # TYPE rej_total counter
      rej_total{community="a",reason="quota"} 3
      rej_total{community="b",reason="quota"} 4
      rej_total{community="a",reason="unavailable"} 100
      rej_total{community="c"} 1000
      # TYPE lat histogram
      lat_bucket{le="1"} 1
      lat_bucket{le="+Inf"} 2
      lat_count 2
      lat_sum 0.5
      """;

  private static Snapshot snapshot() throws MetricsException {
    return Snapshot.parse(URI.create("test:selector"), Instant.EPOCH, BODY);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          rej_total                                   | 4 | 1107.0
          rej_total{reason="quota"}                   | 2 | 7.0
          rej_total{reason="quota",community="b"}     | 1 | 4.0
          rej_total{reason=""}                        | 1 | 1000.0
          lat_count                                   | 1 | 2.0
          lat_bucket{le="+Inf"}                       | 1 | 2.0
          """)
  void sumsEverySeriesTheSubsetMatches(String selector, int series, double sum)
      throws MetricsException {
    Reading r = snapshot().read(Selector.parse(selector));
    assertThat(r.exposed()).isTrue();
    assertThat(r.seriesMatched()).isEqualTo(series);
    assertThat(r.value()).isEqualTo(sum);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          rej_total{reason="other"}
          rej_total{zone="x"}
          nothing_here
          lat
          rej_total{community="a",reason="nope"}
          """)
  void nothingMatchingIsNotExposedNotZero(String selector) throws MetricsException {
    Reading r = snapshot().read(Selector.parse(selector));
    assertThat(r.exposed()).isFalse();
    assertThat(r.asOptional()).isEmpty();
    assertThat(r.toString()).isEqualTo(selector + " not exposed");
    assertThatThrownBy(r::value)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(Selector.parse(selector) + " is not exposed; check exposed() first");
  }

  /** Mutant partners: exact-label-set matching and "any one matcher" matching must fail. */
  @Test
  void wrongMatchingSemanticsAreCaught() throws MetricsException {
    Selector quota = Selector.parse("rej_total{reason=\"quota\"}");
    Snapshot s = snapshot();
    BiPredicate<Selector, Sample> exact = (sel, sample) -> sel.matchers().equals(sample.labels());
    assertThat(s.matching(quota).stream().filter(x -> exact.test(quota, x))).isEmpty();
    assertThat(s.matching(quota)).hasSize(2);
    Selector both = Selector.parse("rej_total{reason=\"quota\",community=\"b\"}");
    long anyOne =
        s.families().get(0).samples().stream()
            .filter(
                x ->
                    both.matchers().entrySet().stream()
                        .anyMatch(m -> m.getValue().equals(x.labels().get(m.getKey()))))
            .count();
    assertThat(anyOne).isEqualTo(2);
    assertThat(s.read(both).seriesMatched()).isEqualTo(1);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          foo                                   | foo
          ` foo{ b = "2" , a = "1", } `         | foo{a="1",b="2"}
          foo{}                                 | foo
          foo{a="q\\"\\\\\\n"}                  | foo{a="q\\"\\\\\\n"}
          ns:foo_total{reason="日本"}           | ns:foo_total{reason="日本"}
          """)
  void toStringIsCanonicalAndRoundTrips(String text, String canonical) throws MetricsException {
    Selector s = Selector.parse(text);
    assertThat(s.toString()).isEqualTo(canonical);
    assertThat(Selector.parse(s.toString())).isEqualTo(s);
  }

  @Test
  void escapesInMatchersAreDecoded() throws MetricsException {
    assertThat(Selector.parse("foo{a=\"q\\\"\\\\\\n\"}").matchers())
        .isEqualTo(Map.of("a", "q\"\\\n"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          ``              | selector '': column 1: expected a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*), got end of selector
          foo{            | selector 'foo{': column 5: expected a label name or '}' to close the '{' at column 4, got end of selector
          foo{a="1"       | selector 'foo{a="1"': column 10: expected ',' or '}' after the value of label 'a' (the '{' at column 4 is never closed), got end of selector
          foo{a=1}        | selector 'foo{a=1}': column 7: expected '"' to open the value of label 'a', got '1'
          foo{a="\\x"}    | selector 'foo{a="\\x"}': column 8: invalid escape '\\x' in the value of label 'a' (allowed: \\\\, \\", \\n)
          foo bar         | selector 'foo bar': column 5: expected '{' or end of selector, got 'b'
          foo{a="1",a="2"} | selector 'foo{a="1",a="2"}': column 11: duplicate label name 'a'
          """)
  void badSelectorsNameColumnAndExpectation(String text, String message) {
    assertThatThrownBy(() -> Selector.parse(text))
        .isInstanceOf(MetricsException.class)
        .hasMessage(message);
  }

  @Test
  void constructorChecksNames() {
    assertThatThrownBy(() -> new Selector("9x", Map.of()))
        .hasMessage("name must match [a-zA-Z_:][a-zA-Z0-9_:]*, got '9x'");
    assertThatThrownBy(() -> new Selector("x", Map.of("a-b", "1")))
        .hasMessage("matchers names must match [a-zA-Z_][a-zA-Z0-9_]*, got 'a-b'");
  }
}
