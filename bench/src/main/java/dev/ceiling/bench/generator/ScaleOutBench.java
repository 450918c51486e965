package dev.ceiling.bench.generator;

import dev.ceiling.core.model.Target;
import dev.ceiling.core.os.JavaExecutable;
import dev.ceiling.experiment.GeneratorProcesses;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.TargetLoad;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One generator process against two at the same offered rates, both through {@link
 * GeneratorProcesses} (the sweep runner's {@code --generators N} path: child JVMs, one start
 * instant, reports merged exactly), against {@link NullRelay} in its own JVM on 127.0.0.1. So the
 * only difference between the two rows of a rate is the number of generator processes: one JVM
 * offering the whole schedule, or two each offering half of it.
 *
 * <p>{@code ScaleOutBench [secondsPerCell] [conns] [rate,rate,...] [processes,processes,...]}
 * (defaults 10, 8, 10000,20000,30000,50000, 1,2). A Markdown table on stdout (planned, sent,
 * accepted, send-lag p50/p99/max, the self-check, load average before and after), then {@code
 * max_on_schedule_per_s} for each process count: the highest offered rate whose merged cell sent
 * every slot with send-lag p99 <= 1 ms ({@link GeneratorBench#onSchedule}). Connections and
 * identities are split over the processes (8 connections: 8 from one process, 4 + 4 from two), so
 * the relay sees the same connection count in both rows. Each cell waits for its children to be
 * ready and then {@link GeneratorProcesses#START_LEAD} before its start instant; that wait is not
 * measured.
 */
public final class ScaleOutBench {
  private ScaleOutBench() {}

  public static void main(String[] args) throws Exception {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 10;
    int conns = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    String rates = args.length > 2 ? args[2] : "10000,20000,30000,50000";
    String counts = args.length > 3 ? args[3] : "1,2";
    Process relay =
        new ProcessBuilder(
                JavaExecutable.path(),
                "-cp",
                System.getProperty("java.class.path"),
                NullRelay.class.getName())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try {
      BufferedReader r =
          new BufferedReader(new InputStreamReader(relay.getInputStream(), StandardCharsets.UTF_8));
      String url = "ws://127.0.0.1:" + Integer.parseInt(r.readLine().trim()) + "/";
      run(url, seconds, conns, rates, counts);
    } finally {
      relay.destroy();
      relay.waitFor();
    }
  }

  private static void run(String url, double seconds, int conns, String rates, String counts)
      throws Exception {
    System.out.println(
        "| processes | offered/s | planned | sent | accepted | send lag p50 / p99 / max ms |"
            + " bound | on schedule | load before -> after |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    Map<Integer, Double> best = new LinkedHashMap<>();
    for (String cs : counts.split(",", -1)) {
      int n = Integer.parseInt(cs.trim());
      best.put(n, 0.0);
      // One throwaway cell per process count: the children are fresh JVMs every cell, so this
      // warms only the page cache and the relay, but keeps the first measured row comparable.
      cell(url, 2000, 2, conns, n);
      for (String rs : rates.split(",", -1)) {
        double rate = Double.parseDouble(rs.trim());
        String before = loadAverage();
        GeneratorReport rep = cell(url, rate, seconds, conns, n);
        GeneratorReport.Result a = rep.aggregate();
        boolean kept = GeneratorBench.onSchedule(a);
        if (kept) {
          best.merge(n, rate, Math::max);
        }
        System.out.println(
            String.format(
                Locale.ROOT,
                "| %d | %.0f | %d | %d | %d | %s / %s / %s | %s | %s | %s -> %s |",
                n,
                rate,
                a.slotsPlanned(),
                a.attempted(),
                a.accepted(),
                a.sendLag().p50Ms(),
                a.sendLag().p99Ms(),
                a.sendLag().maxMs(),
                rep.generatorBound() ? "BOUND" : "no",
                kept ? "yes" : "no",
                before,
                loadAverage()));
        if (rep.generatorBound()) {
          System.err.println("    " + n + " x " + rate + "/s: " + rep.generatorBoundReason());
        }
      }
    }
    System.out.println();
    best.forEach(
        (n, rate) ->
            System.out.println(
                String.format(Locale.ROOT, "max_on_schedule_per_s processes=%d: %.0f", n, rate)));
  }

  private static GeneratorReport cell(String url, double rate, double seconds, int conns, int n)
      throws Exception {
    Target t = new Target("bench", url, null, List.of(List.of("h", "bench")), 1, 64);
    GeneratorConfig cfg =
        GeneratorConfig.builder()
            .load(new TargetLoad(t, rate, conns, 16))
            .duration(Duration.ofMillis((long) (seconds * 1000)))
            .publishTimeout(Duration.ofSeconds(5))
            .connectTimeout(Duration.ofSeconds(60))
            .build();
    return new GeneratorProcesses(n, line -> {}).run(cfg);
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim().split(" ", -1)[0];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }
}
