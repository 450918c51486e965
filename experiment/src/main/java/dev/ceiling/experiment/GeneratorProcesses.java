package dev.ceiling.experiment;

import com.google.common.collect.EvictingQueue;
import com.google.common.collect.Lists;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.os.JavaExecutable;
import dev.ceiling.experiment.internal.GeneratorChild;
import dev.ceiling.experiment.internal.SegmentSpec;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.SegmentMerge;
import dev.ceiling.generator.SegmentMergeException;
import dev.ceiling.generator.WindowListener;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Offers one cell's load from N local generator processes (a JVM each, so one process's GC pause
 * stalls only its own senders): process i runs segment i/N of the cell's schedule, all from one
 * start instant a little in the future, and their reports are merged exactly ({@link SegmentMerge}:
 * summed counts, merged raw histograms). The caller's {@link WindowListener} is called by this
 * process at the window's wall-clock edges (start instant + warm-up, + duration), which is where
 * every child's window opens and closes.
 *
 * <p>A child that is not connected and warm before the start instant refuses to start late and
 * fails the cell (an infrastructure failure naming the segment and the child's last line). Reports
 * of a failed cell are kept in their directory, which the error names.
 */
public final class GeneratorProcesses {
  /**
   * Fixed part of the lead before the start instant: JVM start, class loading and connecting. Two
   * cold child JVMs on a 2-core box at load average 13 needed 8 s from launch to connected and warm
   * (5 s was too little there), so this leaves about twice that. It is paid once per cell; a
   * handshake in which the children report readiness before the instant is chosen would remove it
   * (not built: the generator fixes its start instant before it pre-signs).
   */
  public static final Duration BASE_LEAD = Duration.ofSeconds(15);

  /**
   * Signing speed assumed for the lead, events/s per process: far below libsecp256k1's ~21,000 per
   * core (docs/PERFORMANCE.md), because N processes share the cores and the relay runs beside them.
   */
  public static final double ASSUMED_SIGNS_PER_S = 2_000;

  /** Slack after the grace period before a child that has not ended is killed. */
  private static final Duration EXIT_SLACK = Duration.ofSeconds(60);

  /** How the children's reports become the cell's; a seam for the tests' mutant. */
  @FunctionalInterface
  interface Merger {
    GeneratorReport merge(List<SegmentMerge.Input> segments) throws SegmentMergeException;
  }

  private final int count;
  private final Consumer<String> progress;
  private final Merger merger;
  private final Duration baseLead;

  /** N processes; {@code progress} receives every child's stderr lines, prefixed by segment. */
  public GeneratorProcesses(int count, Consumer<String> progress) {
    this(count, progress, SegmentMerge::merge, BASE_LEAD);
  }

  /**
   * As above, with another merge (tests only: the mutant that is caught) and another fixed lead
   * (tests only: one about a child's failure, not its timing, gives a loaded machine's JVM starts
   * all the time they take, so the child reaches the failure under test and not a late start).
   */
  GeneratorProcesses(int count, Consumer<String> progress, Merger merger, Duration baseLead) {
    if (count < 1) {
      throw new IllegalArgumentException("generator processes must be >= 1, got " + count);
    }
    this.count = count;
    this.progress = progress;
    this.merger = merger;
    this.baseLead = baseLead;
  }

  /**
   * The time between launching the children and the start instant: {@link #BASE_LEAD} plus
   * pre-signing each process's share of the schedule (warm-up included) at {@link
   * #ASSUMED_SIGNS_PER_S}.
   */
  public static Duration lead(GeneratorConfig whole, int n) {
    return lead(whole, n, BASE_LEAD);
  }

  private static Duration lead(GeneratorConfig whole, int n, Duration baseLead) {
    double seconds = (whole.warmup().toNanos() + whole.duration().toNanos()) / 1e9;
    double events = 0;
    for (var l : whole.loads()) {
      events += l.ratePerS() * seconds / n;
    }
    return baseLead.plusMillis(Math.round(events / ASSUMED_SIGNS_PER_S * 1000));
  }

  /**
   * Runs the cell's configuration ({@code whole}: every segment, any start instant ignored) as N
   * processes and returns the merged report.
   *
   * @throws GeneratorException when a child fails or does not end in time (infrastructure), or its
   *     configuration is refused (config); the message names the segment and the child's reason
   */
  public GeneratorReport run(GeneratorConfig whole) throws GeneratorException {
    Path dir = reportsDirectory();
    Duration lead = lead(whole, count, baseLead);
    Instant startAt = Instant.now().plus(lead).truncatedTo(ChronoUnit.MILLIS);
    Instant windowStart = startAt.plus(whole.warmup());
    Instant windowEnd = windowStart.plus(whole.duration());
    progress.accept(
        String.format(
            Locale.ROOT,
            "%d generator processes, segments 0/%d..%d/%d, start at %s (lead %.1f s); reports in %s",
            count,
            count,
            count - 1,
            count,
            startAt,
            lead.toMillis() / 1000.0,
            dir));
    List<Child> children = new ArrayList<>();
    Thread window = null;
    try {
      for (int i = 0; i < count; i++) {
        children.add(launch(SegmentSpec.of(whole, i, count, startAt), dir));
      }
      window = windowThread(whole.windowListener(), windowStart, windowEnd);
      window.start();
      awaitAll(children, windowEnd.plus(whole.gracePeriod()).plus(EXIT_SLACK));
      GeneratorReport merged = merge(children, window);
      deleteReports(children, dir);
      return merged;
    } catch (SegmentMergeException | ReportFormatException e) {
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          "the generator processes' reports (kept in " + dir + ") do not merge: " + e.getMessage());
    } catch (IOException e) {
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          "generator processes (directory " + dir + "): " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE, "interrupted while the generators ran");
    } finally {
      if (window != null) {
        window.interrupt();
      }
      for (Child c : children) {
        c.destroy();
      }
    }
  }

  private static Path reportsDirectory() throws GeneratorException {
    try {
      return Files.createTempDirectory("ceiling-generators-");
    } catch (IOException e) {
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          "cannot create a directory for the generator processes' reports: " + e.getMessage());
    }
  }

  /** The ended children's reports, merged once the window's end has been called back. */
  private GeneratorReport merge(List<Child> children, Thread window)
      throws ReportFormatException, SegmentMergeException, InterruptedException {
    List<SegmentMerge.Input> inputs = new ArrayList<>();
    for (Child c : children) {
      inputs.add(
          new SegmentMerge.Input(c.report.toString(), Json.read(c.report, GeneratorReport.class)));
    }
    // The window's end scrape happens at its wall-clock edge, long before the grace period ends.
    window.join(TimeUnit.SECONDS.toMillis(30));
    return merger.merge(inputs);
  }

  /** A merged cell's files are not needed again; a failed cell's are kept for the error. */
  private static void deleteReports(List<Child> children, Path dir) throws IOException {
    for (Child c : children) {
      Files.deleteIfExists(c.report);
      Files.deleteIfExists(c.spec);
    }
    Files.deleteIfExists(dir);
  }

  /**
   * Waits until every child has ended, failing as soon as any one fails (a child that was not ready
   * at the start instant fails the cell then, not after the others' whole schedule).
   */
  private static void awaitAll(List<Child> children, Instant deadline)
      throws GeneratorException, InterruptedException {
    List<Child> running = new ArrayList<>(children);
    while (!running.isEmpty()) {
      for (var it = running.iterator(); it.hasNext(); ) {
        Child c = it.next();
        if (!c.process.isAlive()) {
          c.checkExit();
          it.remove();
        }
      }
      if (running.isEmpty()) {
        return;
      }
      if (Instant.now().isAfter(deadline)) {
        Child c = running.get(0);
        throw new GeneratorException(
            GeneratorException.Kind.INFRASTRUCTURE,
            "the generator process for segment "
                + c.label
                + " (pid "
                + c.process.pid()
                + ") had not ended "
                + EXIT_SLACK.toSeconds()
                + " s after its grace period; killed it");
      }
      Thread.sleep(POLL_MS);
    }
  }

  /** How often the wait for the children looks at them. */
  private static final long POLL_MS = 100;

  /** Calls the listener at the window's wall-clock edges; an interrupt skips what is left. */
  private static Thread windowThread(WindowListener l, Instant start, Instant end) {
    Thread t =
        new Thread(
            () -> {
              try {
                sleepUntil(start);
                l.windowStarted(start);
                sleepUntil(end);
                l.windowEnded(end);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "ceiling-generators-window");
    t.setDaemon(true);
    return t;
  }

  private static void sleepUntil(Instant at) throws InterruptedException {
    long ms;
    while ((ms = Duration.between(Instant.now(), at).toMillis()) > 0) {
      Thread.sleep(Math.min(ms, 1000));
    }
  }

  private Child launch(SegmentSpec spec, Path dir) throws IOException {
    String label = spec.segmentIndex() + "/" + spec.segmentCount();
    Path specFile = dir.resolve("segment-" + spec.segmentIndex() + ".spec.json");
    Path report = dir.resolve("segment-" + spec.segmentIndex() + ".json");
    Json.write(specFile, spec);
    List<String> cmd = new ArrayList<>();
    cmd.add(JavaExecutable.path());
    cmd.add("-cp");
    cmd.add(classpath());
    cmd.add(GeneratorChild.class.getName());
    cmd.add(specFile.toString());
    cmd.add(report.toString());
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.PIPE)
            .start();
    Child c = new Child(label, p, specFile, report);
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  c.lastLines(line);
                  progress.accept("segment " + label + ": " + line);
                }
              } catch (IOException e) {
                // The child ended; its exit code says how.
              }
            },
            "ceiling-generator-" + spec.segmentIndex() + "-stderr");
    reader.setDaemon(true);
    reader.start();
    c.reader = reader;
    return c;
  }

  /**
   * What a child's exit code says failed: 2 is bad configuration; everything else, a child that
   * started after the instant this parent chose ({@link GeneratorChild#STARTED_LATE}) included, is
   * infrastructure, since a lead the machine could not meet is not the user's input.
   */
  static GeneratorException.Kind kindOfExit(int code) {
    return code == 2 ? GeneratorException.Kind.CONFIG : GeneratorException.Kind.INFRASTRUCTURE;
  }

  /** One child process and what it left behind. */
  private static final class Child {
    final String label;
    final Process process;
    final Path spec;
    final Path report;

    /** The last lines the child wrote to stderr, for its failure's reason. */
    private final EvictingQueue<String> tail = EvictingQueue.create(5);

    Thread reader;

    Child(String label, Process process, Path spec, Path report) {
      this.label = label;
      this.process = process;
      this.spec = spec;
      this.report = report;
    }

    synchronized void lastLines(String line) {
      tail.add(line);
    }

    /** The child's last error line, or its last line. */
    synchronized String reason() {
      List<String> lines = new ArrayList<>(tail);
      for (String l : Lists.reverse(lines)) {
        if (l.startsWith("error: ")) {
          return l.substring("error: ".length());
        }
      }
      return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
    }

    /** After the process ended: its exit code, with its reason when it is not 0. */
    void checkExit() throws GeneratorException, InterruptedException {
      // Its last lines are read before its reason is quoted.
      reader.join(5_000);
      int code = process.exitValue();
      if (code != 0) {
        throw new GeneratorException(
            kindOfExit(code),
            "the generator process for segment " + label + " exited " + code + ": " + reason());
      }
    }

    void destroy() {
      if (process.isAlive()) {
        process.destroyForcibly();
        try {
          process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /**
   * The class path for a child: {@code java.class.path}, plus the file URLs of any URLClassLoader
   * in the context loader chain (under {@code mvn exec:java} the project's classes live only
   * there).
   */
  static String classpath() {
    Set<String> entries = new LinkedHashSet<>();
    for (ClassLoader l = Thread.currentThread().getContextClassLoader();
        l != null;
        l = l.getParent()) {
      if (l instanceof URLClassLoader u) {
        for (URL url : u.getURLs()) {
          if ("file".equals(url.getProtocol())) {
            try {
              entries.add(Path.of(url.toURI()).toString());
            } catch (URISyntaxException | IllegalArgumentException e) {
              // Not a plain file path: it cannot go on a java -cp line.
            }
          }
        }
      }
    }
    String own = System.getProperty("java.class.path", "");
    if (!own.isEmpty()) {
      entries.add(own);
    }
    return String.join(File.pathSeparator, entries);
  }
}
