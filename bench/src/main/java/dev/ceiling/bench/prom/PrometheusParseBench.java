package dev.ceiling.bench.prom;

import dev.ceiling.prom.MetricFamily;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.PrometheusText;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How fast {@link PrometheusText#parse} reads a ~1 MB exposition shaped like a relay's: counters
 * and gauges with a few labels, histograms with 12 buckets, some escaped label values and HELP
 * lines. Prints the median over repeated runs after a warm-up; run with {@code java -cp ...
 * dev.ceiling.bench.prom.PrometheusParseBench [targetBytes] [runs]}.
 */
public final class PrometheusParseBench {
  private PrometheusParseBench() {}

  public static void main(String[] args) throws MetricsException {
    int targetBytes = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    String body = exposition(targetBytes);
    int bytes = body.getBytes(StandardCharsets.UTF_8).length;
    long samples = 0;
    for (MetricFamily f : PrometheusText.parse(body)) {
      samples += f.samples().size();
    }
    // Warm-up: let the JIT compile the parser before anything is timed.
    long warmupEnd = System.nanoTime() + 5_000_000_000L;
    while (System.nanoTime() < warmupEnd) {
      blackhole(PrometheusText.parse(body));
    }
    double[] millis = new double[runs];
    for (int i = 0; i < runs; i++) {
      long t0 = System.nanoTime();
      blackhole(PrometheusText.parse(body));
      millis[i] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(millis);
    double median = millis[runs / 2];
    System.out.printf(
        Locale.ROOT,
        "body %d bytes, %d samples; %d runs: median %.2f ms (min %.2f, max %.2f);"
            + " %.1f MB/s; %.2f M samples/s%n",
        bytes,
        samples,
        runs,
        median,
        millis[0],
        millis[runs - 1],
        bytes / 1e6 / (median / 1e3),
        samples / 1e6 / (median / 1e3));
    if (sink == 42) {
      System.out.println(); // read the sink so the parses cannot be optimised away
    }
  }

  private static int sink;

  private static void blackhole(List<MetricFamily> families) {
    sink += families.size();
  }

  static String exposition(int targetBytes) {
    StringBuilder b = new StringBuilder(targetBytes + 4096);
    int family = 0;
    while (b.length() < targetBytes) {
      String name = "relay_metric_" + family;
      switch (family % 3) {
        case 0 -> {
          b.append("# HELP ")
              .append(name)
              .append("_total Events by community and reason.\\n")
              .append('\n');
          b.append("# TYPE ").append(name).append("_total counter\n");
          for (int c = 0; c < 20; c++) {
            b.append(name)
                .append("_total{community=\"c")
                .append(c)
                .append("\",reason=\"quota \\\"hard\\\"\"} ")
                .append(1000L * c + family)
                .append('\n');
          }
        }
        case 1 -> {
          b.append("# TYPE ").append(name).append(" gauge\n");
          for (int c = 0; c < 20; c++) {
            b.append(name)
                .append("{community=\"c")
                .append(c)
                .append("\"} ")
                .append(c * 0.25 + family)
                .append(" 1700000000000\n");
          }
        }
        default -> {
          b.append("# TYPE ").append(name).append(" histogram\n");
          for (int c = 0; c < 4; c++) {
            long cumulative = 0;
            for (int k = 0; k < 12; k++) {
              cumulative += k + c;
              b.append(name)
                  .append("_bucket{community=\"c")
                  .append(c)
                  .append("\",le=\"")
                  .append(k == 11 ? "+Inf" : Double.toString(0.0005 * (1 << k)))
                  .append("\"} ")
                  .append(cumulative)
                  .append('\n');
            }
            b.append(name)
                .append("_sum{community=\"c")
                .append(c)
                .append("\"} ")
                .append(cumulative * 0.01)
                .append('\n');
            b.append(name)
                .append("_count{community=\"c")
                .append(c)
                .append("\"} ")
                .append(cumulative)
                .append('\n');
          }
        }
      }
      family++;
    }
    return b.toString();
  }
}
