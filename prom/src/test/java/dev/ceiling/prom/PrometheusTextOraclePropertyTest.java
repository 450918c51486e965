package dev.ceiling.prom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.testing.Property;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot.UnknownDataPointSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The oracle: random metric families are written by the official Prometheus Java client's text
 * writer, parsed back by ours, and every family (name, type, HELP) and every sample (name, labels,
 * value NaN-aware, timestamp) must come back. The expected samples are derived from the model, not
 * from the writer's text, so a writer/parser disagreement cannot cancel out.
 */
class PrometheusTextOraclePropertyTest {
  private static final int TRIES = 200;

  /** A parser under test: text in, families out. */
  interface Parser {
    List<MetricFamily> parse(String body) throws MetricsException;
  }

  @Test
  void everySampleWrittenByTheOfficialWriterComesBack() {
    Property.forAll("oracle round trip", TRIES, rnd -> roundTrip(rnd, PrometheusText::parse));
  }

  @Test
  void mutantThatUnescapesBackslashNTwiceIsCaught() {
    // A classic sequential-replace unescaper turns the two characters '\' 'n' (written as \\n)
    // into a newline; simulate it on our output.
    Parser mutant =
        body ->
            mapSamples(PrometheusText.parse(body), s -> relabel(s, v -> v.replace("\\n", "\n")));
    assertThatThrownBy(
            () ->
                Property.forAll(
                    "oracle vs mis-unescaping mutant", TRIES, rnd -> roundTrip(rnd, mutant)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("oracle vs mis-unescaping mutant");
  }

  @Test
  void mutantThatDropsTimestampsIsCaught() {
    Parser mutant =
        body ->
            mapSamples(
                PrometheusText.parse(body), s -> new Sample(s.name(), s.labels(), s.value(), null));
    assertThatThrownBy(
            () ->
                Property.forAll(
                    "oracle vs timestamp-dropping mutant", TRIES, rnd -> roundTrip(rnd, mutant)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("timestamp");
  }

  @Test
  void mutantThatReadsNanAsZeroIsCaught() {
    Parser mutant =
        body ->
            mapSamples(
                PrometheusText.parse(body),
                s ->
                    new Sample(
                        s.name(),
                        s.labels(),
                        Double.isNaN(s.value()) ? 0.0 : s.value(),
                        s.timestampMs()));
    assertThatThrownBy(
            () ->
                Property.forAll(
                    "oracle vs NaN-as-zero mutant", TRIES, rnd -> roundTrip(rnd, mutant)))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void mutantThatLosesHelpEscapesIsCaught() {
    Parser mutant =
        body -> {
          List<MetricFamily> out = new ArrayList<>();
          for (MetricFamily f : PrometheusText.parse(body)) {
            String help = f.help() == null ? null : f.help().replace("\n", "\\n");
            out.add(new MetricFamily(f.name(), f.type(), help, f.samples()));
          }
          return out;
        };
    assertThatThrownBy(
            () -> Property.forAll("oracle vs HELP mutant", TRIES, rnd -> roundTrip(rnd, mutant)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("help");
  }

  // ---------------------------------------------------------------------------------------------

  private static void roundTrip(SplittableRandom rnd, Parser parser) {
    List<MetricSnapshot> snapshots = new ArrayList<>();
    Map<String, MetricFamily> expected = new TreeMap<>();
    int families = 1 + rnd.nextInt(6);
    for (int i = 0; i < families; i++) {
      String name = metricName(rnd) + "_" + i;
      String help = rnd.nextInt(4) == 0 ? null : help(rnd);
      switch (rnd.nextInt(5)) {
        case 0 -> counter(rnd, name, help, snapshots, expected);
        case 1 -> gauge(rnd, name, help, snapshots, expected);
        case 2 -> histogram(rnd, name, help, snapshots, expected);
        case 3 -> summary(rnd, name, help, snapshots, expected);
        default -> unknown(rnd, name, help, snapshots, expected);
      }
    }
    String text = write(new MetricSnapshots(snapshots));
    List<MetricFamily> parsed;
    try {
      parsed = parser.parse(text);
    } catch (MetricsException e) {
      throw new AssertionError(
          "parser rejected the official writer's text: "
              + e.getMessage()
              + "\n--- text ---\n"
              + text,
          e);
    }
    compare(expected, parsed, text);
  }

  private static void compare(
      Map<String, MetricFamily> expected, List<MetricFamily> parsed, String text) {
    Map<String, MetricFamily> actual = new TreeMap<>();
    for (MetricFamily f : parsed) {
      actual.put(f.name(), f);
    }
    assertThat(actual.keySet())
        .as("family names\n--- text ---\n%s", text)
        .isEqualTo(expected.keySet());
    for (MetricFamily e : expected.values()) {
      MetricFamily a = actual.get(e.name());
      assertThat(a.type()).as("type of %s\n--- text ---\n%s", e.name(), text).isEqualTo(e.type());
      assertThat(a.help()).as("help of %s\n--- text ---\n%s", e.name(), text).isEqualTo(e.help());
      Map<String, Sample> want = bySeries(e.samples());
      Map<String, Sample> got = bySeries(a.samples());
      assertThat(got.keySet())
          .as("series of %s\n--- text ---\n%s", e.name(), text)
          .isEqualTo(want.keySet());
      for (Map.Entry<String, Sample> w : want.entrySet()) {
        Sample g = got.get(w.getKey());
        assertThat(Double.compare(g.value(), w.getValue().value()))
            .as(
                "value of %s: want %s, got %s\n--- text ---\n%s",
                w.getKey(), w.getValue().value(), g.value(), text)
            .isZero();
        assertThat(g.timestampMs())
            .as("timestamp of %s\n--- text ---\n%s", w.getKey(), text)
            .isEqualTo(w.getValue().timestampMs());
      }
    }
  }

  /**
   * Keys samples by name and labels, with le/quantile compared as numbers (writers format them).
   */
  private static Map<String, Sample> bySeries(List<Sample> samples) {
    Map<String, Sample> out = new LinkedHashMap<>();
    for (Sample s : samples) {
      Map<String, String> labels = new TreeMap<>(s.labels());
      for (String special : List.of("le", "quantile")) {
        String v = labels.get(special);
        if (v != null) {
          labels.put(special, "#" + Double.doubleToLongBits(number(v)));
        }
      }
      String key = Names.series(s.name(), labels);
      assertThat(out.put(key, s)).as("duplicate series %s", key).isNull();
    }
    return out;
  }

  private static double number(String v) {
    return switch (v) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(v);
    };
  }

  private static String write(MetricSnapshots snapshots) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      PrometheusTextFormatWriter.create().write(out, snapshots);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  // --- generators ------------------------------------------------------------------------------

  private static final String NAME_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  private static final String NAME_CHARS = NAME_START + "0123456789_:";
  private static final String LABEL_CHARS = NAME_START + "0123456789_";

  /** Pieces of label values and HELP texts, weighted toward what escaping must survive. */
  private static final String[] NASTY = {
    "a", "Z", "0", " ", "\"", "\\", "\n", "n", "\\n", "\\\"", "\\\\", "{", "}", ",", "=", "#", "\t",
    "ü", "日本", "😀", "\u00a0", "quota", "+Inf", "NaN"
  };

  private static String metricName(SplittableRandom rnd) {
    StringBuilder b =
        new StringBuilder().append(NAME_START.charAt(rnd.nextInt(NAME_START.length())));
    int n = rnd.nextInt(8);
    for (int i = 0; i < n; i++) {
      b.append(NAME_CHARS.charAt(rnd.nextInt(NAME_CHARS.length())));
    }
    return b.toString();
  }

  private static String labelName(SplittableRandom rnd) {
    StringBuilder b =
        new StringBuilder().append(NAME_START.charAt(rnd.nextInt(NAME_START.length())));
    int n = rnd.nextInt(6);
    for (int i = 0; i < n; i++) {
      b.append(LABEL_CHARS.charAt(rnd.nextInt(LABEL_CHARS.length())));
    }
    return b.toString();
  }

  private static String nasty(SplittableRandom rnd, int maxPieces) {
    StringBuilder b = new StringBuilder();
    int n = rnd.nextInt(maxPieces + 1);
    for (int i = 0; i < n; i++) {
      b.append(NASTY[rnd.nextInt(NASTY.length)]);
    }
    return b.toString();
  }

  /** HELP loses leading blanks in the format itself (the separator), so none are generated. */
  private static String help(SplittableRandom rnd) {
    String h = nasty(rnd, 8);
    while (!h.isEmpty() && (h.charAt(0) == ' ' || h.charAt(0) == '\t')) {
      h = h.substring(1);
    }
    return h;
  }

  private static String expectedHelp(String help) {
    // The writer omits the HELP line for an empty text.
    return help == null || help.isEmpty() ? null : help;
  }

  /** Distinct label sets for one family; 1 set if the family has no label names. */
  private static List<Labels> labelSets(SplittableRandom rnd) {
    Set<String> names = new HashSet<>();
    int count = rnd.nextInt(4);
    while (names.size() < count) {
      String n = labelName(rnd);
      if (!n.equals("le") && !n.equals("quantile")) {
        names.add(n);
      }
    }
    List<String> nameList = new ArrayList<>(names);
    List<Labels> out = new ArrayList<>();
    Set<List<String>> seen = new HashSet<>();
    int points = nameList.isEmpty() ? 1 : 1 + rnd.nextInt(4);
    for (int p = 0; p < points; p++) {
      List<String> values = new ArrayList<>();
      for (int i = 0; i < nameList.size(); i++) {
        values.add(nasty(rnd, 5));
      }
      if (seen.add(values)) {
        out.add(Labels.of(nameList, values));
      }
    }
    return out;
  }

  private static double anyValue(SplittableRandom rnd) {
    return switch (rnd.nextInt(12)) {
      case 0 -> Double.NaN;
      case 1 -> Double.POSITIVE_INFINITY;
      case 2 -> Double.NEGATIVE_INFINITY;
      case 3 -> Double.MAX_VALUE;
      case 4 -> -Double.MAX_VALUE;
      case 5 -> Double.MIN_VALUE;
      case 6 -> 1e-300 * rnd.nextDouble();
      case 7 -> 0.0;
      case 8 -> (double) rnd.nextLong(1L << 53);
      case 9 -> -rnd.nextDouble() * 1e6;
      default -> rnd.nextDouble() * Math.pow(10, rnd.nextInt(-20, 20));
    };
  }

  private static double nonNegativeValue(SplittableRandom rnd) {
    double v = anyValue(rnd);
    return Double.isNaN(v) ? v : Math.abs(v);
  }

  private static Long timestamp(SplittableRandom rnd) {
    return rnd.nextBoolean() ? null : rnd.nextLong(0, 4_102_444_800_000L);
  }

  private static Map<String, String> map(Labels labels) {
    Map<String, String> m = new TreeMap<>();
    for (int i = 0; i < labels.size(); i++) {
      m.put(labels.getName(i), labels.getValue(i));
    }
    return m;
  }

  private static Map<String, String> with(Labels labels, String name, String value) {
    Map<String, String> m = map(labels);
    m.put(name, value);
    return m;
  }

  private static void counter(
      SplittableRandom rnd,
      String name,
      String help,
      List<MetricSnapshot> out,
      Map<String, MetricFamily> expected) {
    CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
    List<Sample> samples = new ArrayList<>();
    for (Labels labels : labelSets(rnd)) {
      double v = nonNegativeValue(rnd);
      Long ts = timestamp(rnd);
      CounterDataPointSnapshot.Builder p =
          CounterDataPointSnapshot.builder().labels(labels).value(v);
      if (ts != null) {
        p.scrapeTimestampMillis(ts);
      }
      b.dataPoint(p.build());
      samples.add(new Sample(name + "_total", map(labels), v, ts));
    }
    out.add(b.build());
    expected.put(
        name + "_total", new MetricFamily(name + "_total", "counter", expectedHelp(help), samples));
  }

  private static void gauge(
      SplittableRandom rnd,
      String name,
      String help,
      List<MetricSnapshot> out,
      Map<String, MetricFamily> expected) {
    GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
    List<Sample> samples = new ArrayList<>();
    for (Labels labels : labelSets(rnd)) {
      double v = anyValue(rnd);
      Long ts = timestamp(rnd);
      GaugeDataPointSnapshot.Builder p = GaugeDataPointSnapshot.builder().labels(labels).value(v);
      if (ts != null) {
        p.scrapeTimestampMillis(ts);
      }
      b.dataPoint(p.build());
      samples.add(new Sample(name, map(labels), v, ts));
    }
    out.add(b.build());
    expected.put(name, new MetricFamily(name, "gauge", expectedHelp(help), samples));
  }

  private static void unknown(
      SplittableRandom rnd,
      String name,
      String help,
      List<MetricSnapshot> out,
      Map<String, MetricFamily> expected) {
    UnknownSnapshot.Builder b = UnknownSnapshot.builder().name(name).help(help);
    List<Sample> samples = new ArrayList<>();
    for (Labels labels : labelSets(rnd)) {
      double v = anyValue(rnd);
      Long ts = timestamp(rnd);
      UnknownDataPointSnapshot.Builder p =
          UnknownDataPointSnapshot.builder().labels(labels).value(v);
      if (ts != null) {
        p.scrapeTimestampMillis(ts);
      }
      b.dataPoint(p.build());
      samples.add(new Sample(name, map(labels), v, ts));
    }
    out.add(b.build());
    expected.put(name, new MetricFamily(name, "untyped", expectedHelp(help), samples));
  }

  private static void histogram(
      SplittableRandom rnd,
      String name,
      String help,
      List<MetricSnapshot> out,
      Map<String, MetricFamily> expected) {
    HistogramSnapshot.Builder b = HistogramSnapshot.builder().name(name).help(help);
    List<Sample> samples = new ArrayList<>();
    for (Labels labels : labelSets(rnd)) {
      TreeMap<Double, Long> buckets = new TreeMap<>();
      int n = rnd.nextInt(5);
      for (int i = 0; i < n; i++) {
        double bound =
            switch (rnd.nextInt(4)) {
              case 0 -> -rnd.nextDouble() * 100;
              case 1 -> Double.MIN_VALUE * (1 + rnd.nextInt(5));
              default -> rnd.nextDouble() * Math.pow(10, rnd.nextInt(-6, 6));
            };
        buckets.put(bound, rnd.nextLong(0, 1_000_000));
      }
      buckets.put(Double.POSITIVE_INFINITY, rnd.nextLong(0, 1_000_000));
      double[] bounds = buckets.keySet().stream().mapToDouble(Double::doubleValue).toArray();
      long[] counts = buckets.values().stream().mapToLong(Long::longValue).toArray();
      double sum = anyValue(rnd);
      Long ts = timestamp(rnd);
      HistogramDataPointSnapshot.Builder p =
          HistogramDataPointSnapshot.builder()
              .labels(labels)
              .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts));
      p.sum(sum);
      if (ts != null) {
        p.scrapeTimestampMillis(ts);
      }
      b.dataPoint(p.build());
      long cumulative = 0;
      for (int i = 0; i < bounds.length; i++) {
        cumulative += counts[i];
        samples.add(
            new Sample(name + "_bucket", with(labels, "le", leText(bounds[i])), cumulative, ts));
      }
      samples.add(new Sample(name + "_count", map(labels), cumulative, ts));
      if (!Double.isNaN(sum)) { // the model reads a NaN sum as "no sum"; the writer omits it
        samples.add(new Sample(name + "_sum", map(labels), sum, ts));
      }
    }
    out.add(b.build());
    expected.put(name, new MetricFamily(name, "histogram", expectedHelp(help), samples));
  }

  private static String leText(double bound) {
    return bound == Double.POSITIVE_INFINITY ? "+Inf" : Double.toString(bound);
  }

  private static void summary(
      SplittableRandom rnd,
      String name,
      String help,
      List<MetricSnapshot> out,
      Map<String, MetricFamily> expected) {
    SummarySnapshot.Builder b = SummarySnapshot.builder().name(name).help(help);
    List<Sample> samples = new ArrayList<>();
    for (Labels labels : labelSets(rnd)) {
      TreeMap<Double, Double> quantiles = new TreeMap<>();
      int n = rnd.nextInt(4);
      for (int i = 0; i < n; i++) {
        double q =
            switch (rnd.nextInt(4)) {
              case 0 -> 0.0;
              case 1 -> 1.0;
              default -> rnd.nextDouble();
            };
        quantiles.put(q, anyValue(rnd));
      }
      List<Quantile> qs = new ArrayList<>();
      quantiles.forEach((q, v) -> qs.add(new Quantile(q, v)));
      long count = rnd.nextLong(0, 1L << 40);
      double sum = anyValue(rnd);
      Long ts = timestamp(rnd);
      SummaryDataPointSnapshot.Builder p =
          SummaryDataPointSnapshot.builder()
              .labels(labels)
              .quantiles(Quantiles.of(qs))
              .count(count);
      p.sum(sum);
      if (ts != null) {
        p.scrapeTimestampMillis(ts);
      }
      b.dataPoint(p.build());
      quantiles.forEach(
          (q, v) ->
              samples.add(new Sample(name, with(labels, "quantile", Double.toString(q)), v, ts)));
      samples.add(new Sample(name + "_count", map(labels), count, ts));
      if (!Double.isNaN(sum)) { // the model reads a NaN sum as "no sum"; the writer omits it
        samples.add(new Sample(name + "_sum", map(labels), sum, ts));
      }
    }
    out.add(b.build());
    expected.put(name, new MetricFamily(name, "summary", expectedHelp(help), samples));
  }

  // --- mutant helpers ----------------------------------------------------------------------------

  private static List<MetricFamily> mapSamples(
      List<MetricFamily> families, Function<Sample, Sample> f) {
    List<MetricFamily> out = new ArrayList<>();
    for (MetricFamily family : families) {
      out.add(
          new MetricFamily(
              family.name(),
              family.type(),
              family.help(),
              family.samples().stream().map(f).toList()));
    }
    return out;
  }

  private static Sample relabel(Sample s, Function<String, String> f) {
    Map<String, String> labels = new TreeMap<>();
    s.labels().forEach((k, v) -> labels.put(k, f.apply(v)));
    return new Sample(s.name(), labels, s.value(), s.timestampMs());
  }
}
