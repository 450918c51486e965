package dev.ceiling.bench.generator;

import com.sun.management.OperatingSystemMXBean;
import dev.ceiling.core.model.Target;
import dev.ceiling.generator.Generator;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.TargetLoad;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * The generator's capacity: against a null relay (a child JVM on 127.0.0.1 that answers every EVENT
 * with OK at once), sweep the offered rate and report, per rate, send-lag p99, the self-check,
 * headroom and the generator process's CPU per 1,000 events/s. The relay runs in its own process so
 * the CPU figure is the generator's alone.
 *
 * <p>Usage: {@code GeneratorBench [secondsPerCell] [conns] [rate,rate,...]}; prints a Markdown
 * table on stdout.
 */
public final class GeneratorBench {
  private GeneratorBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("relay")) {
      relay();
      return;
    }
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
    int conns = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    String rates = args.length > 2 ? args[2] : "1000,2000,5000,10000,15000,20000,25000,30000";
    Process relay =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                GeneratorBench.class.getName(),
                "relay")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try {
      BufferedReader r =
          new BufferedReader(new InputStreamReader(relay.getInputStream(), StandardCharsets.UTF_8));
      int port = Integer.parseInt(r.readLine().trim());
      String url = "ws://127.0.0.1:" + port + "/";
      System.out.println(
          "| offered/s | sent | accepted | send lag p50 / p99 / max ms | service p50 / p99 ms |"
              + " bound | headroom | gen CPU cores | CPU µs per event | cores per 1k ev/s |");
      System.out.println("|---|---|---|---|---|---|---|---|---|---|");
      // One throwaway cell so the JIT has compiled the send path before anything is measured.
      cell(url, 2000, 2, conns, true);
      for (String rs : rates.split(",", -1)) {
        cell(url, Double.parseDouble(rs), seconds, conns, false);
      }
    } finally {
      relay.destroy();
      relay.waitFor();
    }
  }

  private static void cell(String url, double rate, double seconds, int conns, boolean warmup)
      throws Exception {
    Target t = new Target("bench", url, null, List.of(List.of("h", "bench")), 1, 64);
    GeneratorConfig cfg =
        GeneratorConfig.builder()
            .load(new TargetLoad(t, rate, conns, 16))
            .duration(Duration.ofMillis((long) (seconds * 1000)))
            .gracePeriod(Duration.ofSeconds(5))
            .build();
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    java.lang.management.ThreadMXBean tmx = ManagementFactory.getThreadMXBean();
    java.util.Map<Long, Long> before = new java.util.HashMap<>();
    java.util.Map<String, Long> byGroup = new java.util.TreeMap<>();
    long[] cpu = new long[2];
    long[] wall = new long[2];
    GeneratorReport rep =
        Generator.run(
            cfg,
            line -> {
              // CPU is measured from the clock start to the end of the grace period only:
              // pre-signing is deliberately off the wire clock and off this figure.
              if (line.startsWith("clock starts")) {
                cpu[0] = os.getProcessCpuTime();
                wall[0] = System.nanoTime();
                for (long id : tmx.getAllThreadIds()) {
                  before.put(id, tmx.getThreadCpuTime(id));
                }
              } else if (line.startsWith("done:")) {
                cpu[1] = os.getProcessCpuTime();
                wall[1] = System.nanoTime();
                for (java.lang.management.ThreadInfo ti :
                    tmx.getThreadInfo(tmx.getAllThreadIds())) {
                  if (ti == null) {
                    continue;
                  }
                  long d =
                      tmx.getThreadCpuTime(ti.getThreadId())
                          - before.getOrDefault(ti.getThreadId(), 0L);
                  byGroup.merge(
                      ti.getThreadName().replaceAll("[-@]?[0-9a-f]*[0-9]+", ""), d, Long::sum);
                }
              }
            });
    if (warmup) {
      return;
    }
    GeneratorReport.Result a = rep.aggregate();
    double cores = (cpu[1] - cpu[0]) / (double) (wall[1] - wall[0]);
    // Per event actually sent (not offered), so a cell that fell behind is not flattered.
    double usPerEvent = (cpu[1] - cpu[0]) / 1000.0 / Math.max(1, a.attempted());
    System.out.println(
        String.format(
            Locale.ROOT,
            "| %.0f | %d | %d | %s / %s / %s | %s / %s | %s | %s | %.2f | %.1f | %.3f |",
            rate,
            a.attempted(),
            a.accepted(),
            a.sendLag().p50Ms(),
            a.sendLag().p99Ms(),
            a.sendLag().maxMs(),
            a.service().p50Ms(),
            a.service().p99Ms(),
            rep.generatorBound() ? "BOUND" : "no",
            rep.headroom() == null ? "-" : String.format(Locale.ROOT, "%.1f", rep.headroom()),
            cores,
            usPerEvent,
            usPerEvent * 1000 / 1e6));
    StringBuilder sb = new StringBuilder("    cpu ms by thread group at " + rate + "/s:");
    byGroup.entrySet().stream()
        .filter(e -> e.getValue() > 5_000_000)
        .sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
        .forEach(
            e -> sb.append(' ').append(e.getKey()).append('=').append(e.getValue() / 1_000_000));
    sb.append(" senders=")
        .append(rep.senderCpuS() == null ? "-" : Math.round(rep.senderCpuS() * 1000))
        .append(" process=")
        .append((cpu[1] - cpu[0]) / 1_000_000);
    System.err.println(sb);
  }

  /** The null relay: OK true for every EVENT, id cut from the frame without parsing JSON. */
  private static void relay() throws Exception {
    Server server = new Server();
    ServerConnector c = new ServerConnector(server);
    c.setHost("127.0.0.1");
    c.setPort(0);
    server.addConnector(c);
    server.setHandler(
        WebSocketUpgradeHandler.from(
            server, container -> container.addMapping("/*", (rq, rs, cb) -> new NullRelay())));
    server.start();
    System.out.println(c.getLocalPort());
    System.out.flush();
    // Ends when the parent closes our stdin or destroys us.
    while (System.in.read() >= 0) {
      Thread.onSpinWait();
    }
    server.stop();
  }

  /** One connection of the null relay. */
  public static final class NullRelay implements Session.Listener.AutoDemanding {
    private Session session;

    @Override
    public void onWebSocketOpen(Session s) {
      session = s;
    }

    @Override
    public void onWebSocketText(String m) {
      int i = m.indexOf("\"id\":\"");
      if (m.startsWith("[\"EVENT\"") && i > 0 && i + 6 + 64 <= m.length()) {
        session.sendText(
            "[\"OK\",\"" + m.substring(i + 6, i + 6 + 64) + "\",true,\"\"]", Callback.NOOP);
      }
    }
  }
}
