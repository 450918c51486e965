package dev.ceiling.bench.generator;

import com.sun.management.OperatingSystemMXBean;
import dev.ceiling.core.model.Target;
import dev.ceiling.core.os.JavaExecutable;
import dev.ceiling.generator.Generator;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.TargetLoad;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The generator's capacity against {@link NullRelay} in a child JVM on 127.0.0.1. Two modes:
 *
 * <ul>
 *   <li>{@code GeneratorBench [secondsPerCell] [conns] [rate,rate,...]}: one cell per offered rate
 *       (after a throwaway JIT warm-up cell); a Markdown table on stdout with send lag, the
 *       self-check, sender-thread and process CPU per event and the load average around each cell;
 *       then {@code max_on_schedule_per_s}: the highest offered rate whose cell sent every slot
 *       with send-lag p99 <= 1 ms.
 *   <li>{@code GeneratorBench instr RATE SECONDS CONNS}: for {@code valgrind --tool=callgrind
 *       --instr-atstart=no}: one uninstrumented warm-up cell, then one cell with instrumentation
 *       switched on (callgrind_control) from just before connecting to the end of the grace period
 *       (pre-signing excluded); the difference between two lengths, divided by the difference in
 *       events, is instructions per event on the clock, though on the project's VM the JIT's work
 *       dominates that difference, so docs/PERFORMANCE.md claims no such figure. It uses only API
 *       that also existed before the batching change (a builder's publishTimeout alias included),
 *       so the same class measures both.
 * </ul>
 */
public final class GeneratorBench {
  /** The on-schedule criterion: send-lag p99 at most this, every slot sent. */
  static final double ON_SCHEDULE_P99_MS = 1.0;

  private static final double WARM_UP_PER_S = 10_000;
  private static final double WARM_UP_S = 5;

  /** Sender threads per cell; {@code -Dceiling.bench.senders=N} to measure another count. */
  private static final int SENDERS = Integer.getInteger("ceiling.bench.senders", 2);

  private GeneratorBench() {}

  public static void main(String[] args) throws Exception {
    boolean instr = args.length > 0 && args[0].equals("instr");
    List<String> relayCommand = new ArrayList<>();
    // -Dceiling.bench.relayCpus=1 pins the null relay to those CPUs (run the bench itself under
    // `taskset -c 0`), so the two processes stop taking each other's core: it separates the
    // generator's own lateness from the relay's share of a 2-core machine.
    String relayCpus = System.getProperty("ceiling.bench.relayCpus");
    if (relayCpus != null) {
      relayCommand.addAll(List.of("taskset", "-c", relayCpus));
    }
    relayCommand.addAll(
        List.of(
            JavaExecutable.path(),
            "-cp",
            System.getProperty("java.class.path"),
            "jetty".equals(System.getProperty("ceiling.bench.nullRelay"))
                ? JettyNullRelay.class.getName()
                : NullRelay.class.getName()));
    Process relay =
        new ProcessBuilder(relayCommand).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    relayProcess = relay.toHandle();
    try {
      BufferedReader r =
          new BufferedReader(new InputStreamReader(relay.getInputStream(), StandardCharsets.UTF_8));
      String url = "ws://127.0.0.1:" + Integer.parseInt(r.readLine().trim()) + "/";
      if (instr) {
        instructions(url, Double.parseDouble(args[1]), Double.parseDouble(args[2]), args[3]);
      } else {
        sweep(url, args);
      }
    } finally {
      relay.destroy();
      relay.waitFor();
    }
  }

  /**
   * The null relay's process, whose CPU per event is printed beside the generator's: on a shared
   * 2-core machine the two together decide whether the senders get a core when a slot is due.
   */
  private static ProcessHandle relayProcess;

  private static void sweep(String url, String[] args) throws Exception {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 10;
    int conns = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    String rates = args.length > 2 ? args[2] : "1000,5000,10000,20000,30000,50000";
    System.out.println(
        "| offered/s | planned | sent | accepted | send lag p50 / p90 / p99 / p99.9 / max ms | bound |"
            + " sender CPU µs/event | process CPU µs/event | relay CPU µs/event | on schedule | steal |"
            + " load before -> after |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
    // One throwaway cell so the JIT has compiled the send and receive paths (and the null relay's)
    // before anything is measured: 2 s at 2,000/s left C2 compiling through the 20,000/s cell
    // (10% of the machine's CPU samples in a perf profile, 1 Dec 2026).
    cell(url, WARM_UP_PER_S, WARM_UP_S, conns, new Marks());
    SortedMap<Double, Boolean> keptByRate = new TreeMap<>();
    for (String rs : rates.split(",", -1)) {
      double rate = Double.parseDouble(rs);
      String before = loadAverage();
      CpuSteal stealBefore = CpuSteal.now();
      Marks m = new Marks();
      GeneratorReport rep = cell(url, rate, seconds, conns, m);
      GeneratorReport.Result a = rep.aggregate();
      boolean kept = onSchedule(a);
      keptByRate.merge(rate, kept, Boolean::logicalAnd);
      double sent = Math.max(1, a.attempted());
      System.out.println(
          String.format(
              Locale.ROOT,
              "| %.0f | %d | %d | %d | %s / %s / %s / %s / %s | %s | %s | %.1f | %.1f | %s | %s | %s -> %s |",
              rate,
              a.slotsPlanned(),
              a.attempted(),
              a.accepted(),
              a.sendLag().p50Ms(),
              a.sendLag().p90Ms(),
              a.sendLag().p99Ms(),
              a.sendLag().p999Ms(),
              a.sendLag().maxMs(),
              rep.generatorBound() ? "BOUND" : "no",
              rep.senderCpuS() == null
                  ? "-"
                  : String.format(Locale.ROOT, "%.1f", rep.senderCpuS() * 1e6 / sent),
              m.processCpuNanos() / 1000.0 / sent,
              m.relayCpuNanos() / 1000.0 / sent,
              kept ? "yes" : "no",
              CpuSteal.now().percentSince(stealBefore),
              before,
              loadAverage()));
      if (rep.generatorBound()) {
        System.err.println("    " + rate + "/s: " + rep.generatorBoundReason());
      }
    }
    System.out.println();
    System.out.println(
        String.format(Locale.ROOT, "max_on_schedule_per_s: %.0f", maxOnSchedule(keptByRate)));
  }

  /**
   * The highest offered rate at and below which every measured cell kept its schedule: a rate is
   * not "kept" if a lower one was missed (a sweep can keep 20,000/s and 50,000/s but miss
   * 1,000-10,000/s at p99 1.2-2.2 ms, where the senders park between slots and wake late; the
   * headline must not skip over that).
   */
  static double maxOnSchedule(SortedMap<Double, Boolean> keptByRate) {
    double best = 0;
    for (var e : keptByRate.entrySet()) {
      if (!e.getValue()) {
        break;
      }
      best = e.getKey();
    }
    return best;
  }

  /** Every slot sent, none late past the deadline, send-lag p99 within the criterion. */
  static boolean onSchedule(GeneratorReport.Result a) {
    return a.attempted() == a.slotsPlanned()
        && a.slotsUnsentLate() == 0
        && a.sendLag().p99Ms() != null
        && a.sendLag().p99Ms() <= ON_SCHEDULE_P99_MS;
  }

  private static void instructions(String url, double rate, double seconds, String conns)
      throws Exception {
    int n = Integer.parseInt(conns);
    cell(url, rate, seconds, n, new Marks());
    long pid = ProcessHandle.current().pid();
    Marks m = new Marks();
    m.atStart = () -> callgrind("--instr=on", pid);
    m.atEnd = () -> callgrind("--instr=off", pid);
    GeneratorReport rep = cell(url, rate, seconds, n, m);
    GeneratorReport.Result a = rep.aggregate();
    // Warm-up slots are none here, so attempted is every event sent while instrumented.
    System.out.println("events_sent_while_instrumented: " + a.attempted());
    // Callgrind runs the JVM ~100x slower: a cell that could not keep up says so here, and its
    // instruction count is then not per-event comparable (bigger batches, unsent slots).
    System.out.println(
        "slots_planned: " + a.slotsPlanned() + " unsent_late: " + a.slotsUnsentLate());
    System.out.println("events_accepted: " + a.accepted());
    System.out.println("send_lag_p99_ms: " + a.sendLag().p99Ms());
  }

  private static void callgrind(String what, long pid) {
    try {
      Process p = new ProcessBuilder("callgrind_control", what, Long.toString(pid)).start();
      p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      if (p.waitFor() != 0) {
        throw new IllegalStateException("callgrind_control " + what + " exited " + p.exitValue());
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run callgrind_control (run under valgrind)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** What happens at the clock start and at "done", and the process CPU between them. */
  static final class Marks {
    Runnable atStart = () -> {};
    Runnable atEnd = () -> {};
    private long cpuStart;
    private long cpuEnd;
    private long relayCpuStart;
    private long relayCpuEnd;

    long processCpuNanos() {
      return cpuEnd - cpuStart;
    }

    /** The null relay's CPU over the same span (/proc's clock ticks: 10 ms resolution). */
    long relayCpuNanos() {
      return relayCpuEnd - relayCpuStart;
    }
  }

  private static GeneratorReport cell(String url, double rate, double seconds, int conns, Marks m)
      throws Exception {
    Target t = new Target("bench", url, null, List.of(List.of("h", "bench")), 1, 64);
    GeneratorConfig cfg =
        GeneratorConfig.builder()
            .load(new TargetLoad(t, rate, conns, 16))
            .duration(Duration.ofMillis((long) (seconds * 1000)))
            .senderThreads(SENDERS)
            .publishTimeout(Duration.ofSeconds(5))
            // Under valgrind a cold JVM takes tens of seconds to load Jetty's upgrade path.
            .connectTimeout(Duration.ofMinutes(3))
            .build();
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return Generator.run(
        cfg,
        line -> {
          // Measured from the clock start to the end of the grace period only: pre-signing and
          // pre-encoding are deliberately off the clock and off these figures.
          if (line.startsWith("connecting")) {
            // callgrind_control blocks for up to seconds: switch on before the clock, never on
            // it. Connecting and the warm-up ping are a fixed cost per cell, which the difference
            // between two lengths cancels.
            m.atStart.run();
          } else if (line.startsWith("clock starts")) {
            m.cpuStart = os.getProcessCpuTime();
            m.relayCpuStart = relayCpuNanos();
          } else if (line.startsWith("done:")) {
            m.cpuEnd = os.getProcessCpuTime();
            m.relayCpuEnd = relayCpuNanos();
            m.atEnd.run();
          }
        });
  }

  private static long relayCpuNanos() {
    return relayProcess == null
        ? 0
        : relayProcess.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ", -1);
      return f[0];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }
}
