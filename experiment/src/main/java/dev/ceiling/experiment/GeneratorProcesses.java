package dev.ceiling.experiment;

import com.google.common.collect.EvictingQueue;
import com.google.common.collect.Lists;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.os.JavaExecutable;
import dev.ceiling.experiment.internal.GeneratorChild;
import dev.ceiling.experiment.internal.SegmentSpec;
import dev.ceiling.experiment.internal.StartHandshake;
import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.SegmentMerge;
import dev.ceiling.generator.SegmentMergeException;
import dev.ceiling.generator.StartInstant;
import dev.ceiling.generator.WindowListener;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
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
 * start instant, and their reports are merged exactly ({@link SegmentMerge}: summed counts, merged
 * raw histograms). The caller's {@link WindowListener} is called by this process at the window's
 * wall-clock edges (start instant + warm-up, + duration), which is where every child's window opens
 * and closes.
 *
 * <p>The start instant is chosen only once every child is ready ({@link StartHandshake}): each
 * child pre-signs, connects and warms up, says so, and waits; after the last one has, this process
 * fixes slot 0 {@link #START_LEAD} ahead and gives it to all of them. A fixed lead from launch was
 * a guess at how long a loaded machine takes to start a JVM, and a child that missed it failed the
 * cell. A child that is not ready within {@link #readyBound} fails the cell (an infrastructure
 * failure naming the segment and the child's last line), as does a child that exits first (with its
 * own reason). Reports of a failed cell are kept in their directory, which the error names.
 */
public final class GeneratorProcesses {
  /**
   * Time from the last child's ready line to slot 0. What is left for a ready child is small: the
   * start line's trip through a pipe and a thread's wake-up, then its wake floor probe, which takes
   * half the time left before the instant up to its configured length (1 s by default; 3 s leaves
   * the whole of it), and {@link StartInstant#MIN_LEAD}. No JVM start, class loading, signing or
   * connecting is left to guess at.
   */
  public static final Duration START_LEAD = Duration.ofSeconds(3);

  /**
   * The part of the ready bound for a child JVM's start, class loading and connecting. Two cold
   * child JVMs on a 2-core box at load average 13 needed 8 s from launch to connected and warm; at
   * load 38 (other builds beside the tests, 7 Dec 2026) a real child took about 100 s, and two that
   * could not connect had not got that far after 65 s. It is a bound on a failure, not a wait every
   * cell pays, so it is generous.
   */
  public static final Duration READY_BASE = Duration.ofMinutes(3);

  /**
   * The slowest signing the ready bound allows for, events/s per process: a quarter of the 2,000/s
   * the fixed lead assumed, itself far below libsecp256k1's ~21,000 per core (docs/PERFORMANCE.md),
   * because N processes share the cores with the relay and whatever else runs.
   */
  public static final double SLOWEST_SIGNS_PER_S = 500;

  /** Slack after the grace period before a child that has not ended is killed. */
  private static final Duration EXIT_SLACK = Duration.ofSeconds(60);

  /** How the children's reports become the cell's; a seam for the tests' mutant. */
  @FunctionalInterface
  interface Merger {
    GeneratorReport merge(List<SegmentMerge.Input> segments) throws SegmentMergeException;
  }

  /** The main class that runs segment i; a seam for the tests' slow and never-ready children. */
  @FunctionalInterface
  interface ChildMain {
    String className(int segmentIndex);
  }

  /** Slot 0's instant from the launch and the last ready line; a seam for the tests' mutant. */
  @FunctionalInterface
  interface StartRule {
    Instant startAt(Instant launched, Instant lastReady);
  }

  /** The rule: {@link #START_LEAD} after the last child is ready. */
  static final StartRule AFTER_LAST_READY = (launched, lastReady) -> lastReady.plus(START_LEAD);

  private final int count;
  private final Consumer<String> progress;
  private final Merger merger;
  private final ChildMain childMain;
  private final Duration readyBound;
  private final StartRule startRule;

  /** N processes; {@code progress} receives every child's stderr lines, prefixed by segment. */
  public GeneratorProcesses(int count, Consumer<String> progress) {
    this(count, progress, SegmentMerge::merge);
  }

  /** As above, with another merge (tests only: the mutant that is caught). */
  GeneratorProcesses(int count, Consumer<String> progress, Merger merger) {
    this(count, progress, merger, i -> GeneratorChild.class.getName(), null, AFTER_LAST_READY);
  }

  /**
   * As above, with stand-in children, a ready bound of the test's own ({@code null}: {@link
   * #readyBound}) and another start rule (tests only: the fixed lead that is caught).
   */
  GeneratorProcesses(
      int count,
      Consumer<String> progress,
      Merger merger,
      ChildMain childMain,
      Duration readyBound,
      StartRule startRule) {
    if (count < 1) {
      throw new IllegalArgumentException("generator processes must be >= 1, got " + count);
    }
    this.count = count;
    this.progress = progress;
    this.merger = merger;
    this.childMain = childMain;
    this.readyBound = readyBound;
    this.startRule = startRule;
  }

  /**
   * The longest wait from launching the children until all are ready before the cell fails: {@link
   * #READY_BASE}, plus the configuration's connect timeout (so a child that cannot connect fails
   * with its own reason first), plus pre-signing each process's share of the schedule (warm-up
   * included) at {@link #SLOWEST_SIGNS_PER_S}.
   */
  public static Duration readyBound(GeneratorConfig whole, int n) {
    double seconds = (whole.warmup().toNanos() + whole.duration().toNanos()) / 1e9;
    double events = 0;
    for (var l : whole.loads()) {
      events += l.ratePerS() * seconds / n;
    }
    return READY_BASE
        .plus(whole.connectTimeout())
        .plusMillis(Math.round(events / SLOWEST_SIGNS_PER_S * 1000));
  }

  /**
   * Runs the cell's configuration ({@code whole}: every segment, any start instant ignored) as N
   * processes and returns the merged report.
   *
   * @throws GeneratorException when a child fails, is not ready within the ready bound or does not
   *     end in time (infrastructure), or its configuration is refused (config); the message names
   *     the segment and the child's reason
   */
  public GeneratorReport run(GeneratorConfig whole) throws GeneratorException {
    Path dir = reportsDirectory();
    Duration bound = readyBound != null ? readyBound : readyBound(whole, count);
    progress.accept(
        String.format(
            Locale.ROOT,
            "%d generator processes, segments 0/%d..%d/%d, start instant %.1f s after the last is"
                + " ready (waiting at most %.1f s); reports in %s",
            count,
            count,
            count - 1,
            count,
            START_LEAD.toMillis() / 1000.0,
            bound.toMillis() / 1000.0,
            dir));
    List<Child> children = new ArrayList<>();
    Thread window = null;
    try {
      Instant launched = Instant.now();
      for (int i = 0; i < count; i++) {
        children.add(launch(SegmentSpec.of(whole, i, count, bound.plus(START_LEAD)), dir));
      }
      Instant lastReady = awaitReady(children, launched, bound);
      Instant startAt = startRule.startAt(launched, lastReady).truncatedTo(ChronoUnit.MILLIS);
      progress.accept(
          String.format(
              Locale.ROOT,
              "all %d ready %.1f s after launch; start at %s",
              count,
              Duration.between(launched, lastReady).toMillis() / 1000.0,
              startAt));
      for (Child c : children) {
        c.giveStart(startAt);
      }
      Instant windowStart = startAt.plus(whole.warmup());
      Instant windowEnd = windowStart.plus(whole.duration());
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
   * Waits until every child has said it is ready and returns when the last one did; fails as soon
   * as any one exits, or when {@code bound} after {@code launched} some are still not ready (naming
   * each, with its last line: where it was stuck).
   */
  private static Instant awaitReady(List<Child> children, Instant launched, Duration bound)
      throws GeneratorException, InterruptedException {
    Instant deadline = launched.plus(bound);
    while (true) {
      List<Child> notReady = new ArrayList<>();
      Instant last = launched;
      for (Child c : children) {
        if (!c.process.isAlive()) {
          c.checkExit();
          throw new GeneratorException(
              GeneratorException.Kind.INFRASTRUCTURE,
              "the generator process for segment "
                  + c.label
                  + " exited 0 before it was given its start instant");
        }
        Instant r = c.readyAt();
        if (r == null) {
          notReady.add(c);
        } else if (r.isAfter(last)) {
          last = r;
        }
      }
      if (notReady.isEmpty()) {
        return last;
      }
      if (Instant.now().isAfter(deadline)) {
        List<String> named = new ArrayList<>();
        for (Child c : notReady) {
          named.add(
              "segment "
                  + c.label
                  + " (pid "
                  + c.process.pid()
                  + ", last line: "
                  + c.reason()
                  + ")");
        }
        throw new GeneratorException(
            GeneratorException.Kind.INFRASTRUCTURE,
            String.format(
                Locale.ROOT,
                "the generator process for %s was not ready (pre-signed, connected and warm)"
                    + " within %.1f s of its launch; killed it",
                String.join(", and for ", named),
                bound.toMillis() / 1000.0));
      }
      Thread.sleep(POLL_MS);
    }
  }

  /**
   * Waits until every child has ended, failing as soon as any one fails (a child that could not
   * keep the start instant fails the cell then, not after the others' whole schedule).
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
    cmd.add(childMain.className(spec.segmentIndex()));
    cmd.add(specFile.toString());
    cmd.add(report.toString());
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(ProcessBuilder.Redirect.PIPE)
            .redirectError(ProcessBuilder.Redirect.PIPE)
            .start();
    Child c = new Child(label, p, specFile, report);
    c.reader =
        lines(
            p.getErrorStream(),
            "ceiling-generator-" + spec.segmentIndex() + "-stderr",
            line -> {
              c.lastLines(line);
              progress.accept("segment " + label + ": " + line);
            });
    // Stdout carries the handshake's ready line; anything else there is passed on as progress.
    lines(
        p.getInputStream(),
        "ceiling-generator-" + spec.segmentIndex() + "-stdout",
        line -> {
          if (line.equals(StartHandshake.READY)) {
            c.ready(Instant.now());
          } else {
            progress.accept("segment " + label + ": " + line);
          }
        });
    return c;
  }

  /**
   * A started daemon thread that hands each line of a child's {@code stream} to {@code each} until
   * the child closes it.
   */
  private static Thread lines(InputStream stream, String name, Consumer<String> each) {
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  each.accept(line);
                }
              } catch (IOException e) {
                // The child ended; its exit code says how.
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * What a child's exit code says failed: 2 is bad configuration; everything else ({@link
   * GeneratorChild#STARTED_LATE} included) is infrastructure, since a start instant this parent
   * chose is not the user's input.
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

    /** When this parent read the child's ready line; null until then. */
    private volatile Instant readyAt;

    Child(String label, Process process, Path spec, Path report) {
      this.label = label;
      this.process = process;
      this.spec = spec;
      this.report = report;
    }

    void ready(Instant at) {
      readyAt = at;
    }

    Instant readyAt() {
      return readyAt;
    }

    /** Writes the start line on the child's stdin. */
    void giveStart(Instant startAt) throws GeneratorException {
      try {
        OutputStream in = process.getOutputStream();
        in.write((StartHandshake.startLine(startAt) + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
      } catch (IOException e) {
        throw new GeneratorException(
            GeneratorException.Kind.INFRASTRUCTURE,
            "cannot give the generator process for segment "
                + label
                + " its start instant: "
                + e.getMessage()
                + "; its last line: "
                + reason());
      }
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
