package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.verdict.Estimate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * A delay sweep per link ({@code ceiling sensitivity} on a profile with several upstreams): which
 * link the path waits on, and how many times per event. Each link is swept in turn by its own
 * {@link DelaySweep}, in its own directory named after it, the other links' proxies at zero added
 * delay, every link on the same grid, repeats, cell duration, rate and seed, and against the count
 * declared for it. The plan of every link is written to {@code links.json} before the first cell of
 * the first link; each row of the table (k with its interval next to the proxy's wire count) is
 * added as its link finishes.
 *
 * <p>Built by {@link DelaySweepOptions.Builder#links}; runs once; not thread-safe.
 */
public final class LinkSweeps {
  /** The file of the plan and the table, in the output directory. */
  public static final String FILE = "links.json";

  private final String profile;
  private final LinkSweepsReport.Plan plan;
  private final List<DelaySweepOptions> sweeps;
  private final Path outDir;
  private final DelaySweepProgress progress;

  /** Shared with every link's sweep: a request stops the running link and every later one. */
  private final StopSignal stop = new StopSignal();

  /** The links a stop request ended before their last cell, read off the signal as each ended. */
  private final java.util.Set<String> stopped = new java.util.HashSet<>();

  LinkSweeps(
      String profile,
      LinkSweepsReport.Plan plan,
      List<DelaySweepOptions> sweeps,
      Path out,
      DelaySweepProgress progress) {
    this.progress = progress;
    this.profile = profile;
    this.plan = plan;
    this.sweeps = List.copyOf(sweeps);
    this.outDir = out;
  }

  /** The sweeps of {@code links}, each as {@code base} but for its link and its declared count. */
  static LinkSweeps of(DelaySweepOptions base, List<String> links, Map<String, Double> expected) {
    List<DelaySweepOptions> each = new ArrayList<>();
    links.forEach(l -> each.add(base.forLink(l, expected.get(l))));
    LinkSweepsReport.Plan plan =
        new LinkSweepsReport.Plan(
            links,
            base.delaysMs(),
            base.repeats(),
            base.duration().toNanos() / 1e9,
            base.rate(),
            base.seed(),
            base.margin(),
            expected);
    return new LinkSweeps(base.profile().name(), plan, each, base.outDir(), base.progress());
  }

  /**
   * What is wrong with sweeping {@code links} of a profile declaring {@code declared}, with counts
   * declared for {@code expected}: all at once, each naming the link.
   */
  static List<String> problems(
      List<String> links, List<String> declared, Map<String, Double> expected, boolean contrast) {
    List<String> out = new ArrayList<>();
    if (links.isEmpty()) {
      out.add("links must name at least one upstream; the profile declares " + declared);
    }
    for (String l : links) {
      if (!declared.contains(l)) {
        out.add("link '" + l + "' is not a link of the profile, which declares " + declared);
      }
    }
    if (new TreeSet<>(links).size() != links.size()) {
      out.add("links must not repeat a link, got " + links);
    }
    for (Map.Entry<String, Double> e : new java.util.TreeMap<>(expected).entrySet()) {
      if (!links.contains(e.getKey())) {
        out.add(
            "expected round trips for link '"
                + e.getKey()
                + "', which is not swept (links "
                + links
                + ")");
      } else if (e.getValue() == null || !(e.getValue() >= 0 && Double.isFinite(e.getValue()))) {
        out.add(
            "expected round trips for link '"
                + e.getKey()
                + "' must be a finite number >= 0, got "
                + e.getValue());
      }
    }
    if (contrast) {
      out.add("a contrast sweeps one link: give one link with it, not several");
    }
    return out;
  }

  /**
   * Sweeps every link in turn. Once the plan is written nothing throws: a link whose sweep failed
   * is a row with its outcome, and the next link is still swept (an interrupt stops them all).
   *
   * @throws ExperimentException when the output directory cannot be made or already holds a plan
   */
  public LinkSweepsResult run() throws ExperimentException {
    Path file = Rounds.freshFile(outDir, FILE, "sweep per link");
    Map<String, DelaySweepResult> results = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    LinkSweepsReport report = report(results);
    // Ctrl-C between two links, when no link's own hook is installed, must still stop the run and
    // let it write links.json: this hook holds the exit until the run returns, and its last resort
    // stops the running link's relay, which the shared signal holds.
    ShutdownHook hook = Rounds.hook(stop);
    try {
      Json.write(file, report);
      progress.linksPlanned(plan);
      for (DelaySweepOptions o : sweeps) {
        if (stop.requested()) {
          break;
        }
        progress.link(o.link(), results.size() + 1, sweeps.size());
        DelaySweepResult r = sweep(o);
        if (stop.requested() && (r.report() == null || !r.report().complete())) {
          stopped.add(o.link());
        }
        results.put(o.link(), r);
        r.problems().forEach(p -> problems.add("link '" + o.link() + "': " + p));
        report = report(results);
        Json.write(file, report);
      }
    } catch (IOException e) {
      problems.add("cannot write " + file + ": " + e);
      return new LinkSweepsResult(report, file, Outcome.INFRASTRUCTURE, problems, results);
    } finally {
      hook.close();
    }
    return new LinkSweepsResult(report, file, outcome(results), problems, results);
  }

  /** One link's sweep; a sweep that cannot start (its directory) is its row's failure. */
  private DelaySweepResult sweep(DelaySweepOptions o) {
    // The link's sweep reads the shared signal itself: a Ctrl-C as a link starts stops it before
    // its relay, and one during its cells (its own hook's) stops the links after it too.
    try {
      return DelaySweep.of(o, stop).run();
    } catch (ExperimentException e) {
      return DelaySweepResult.failed(Outcome.INFRASTRUCTURE, e.getMessage());
    }
  }

  /** Asks the running link's sweep to stop after its running cell, and no further link to start. */
  public void interrupt() {
    stop.request();
  }

  /** ESTABLISHED only when every planned link is; otherwise the worst link's. */
  private Outcome outcome(Map<String, DelaySweepResult> results) {
    if (results.size() < plan.links().size()) {
      return Outcome.NOT_ESTABLISHED;
    }
    List<Outcome> worstFirst =
        List.of(Outcome.INFRASTRUCTURE, Outcome.BAD_INPUT, Outcome.NOT_ESTABLISHED);
    for (Outcome o : worstFirst) {
      if (results.values().stream().anyMatch(r -> r.outcome() == o)) {
        return o;
      }
    }
    return Outcome.ESTABLISHED;
  }

  private LinkSweepsReport report(Map<String, DelaySweepResult> results) {
    List<LinkSweepsReport.Row> rows = new ArrayList<>();
    results.forEach(
        (link, r) ->
            rows.add(LinkSweepsReport.Row.of(link, plan.expectedRoundTrips().get(link), r)));
    // A link stopped by an interrupt has a row (what it measured) but was not swept to its end.
    boolean complete =
        rows.size() == plan.links().size()
            && results.keySet().stream().noneMatch(stopped::contains);
    return new LinkSweepsReport(
        LinkSweepsReport.SCHEMA, profile, plan, rows, complete, answer(rows, complete));
  }

  /**
   * "Round trips per event: 'a' 2.0 [1.8, 2.2] (wire 2.00), 'b' ...", or what is missing. Where a
   * link has a latency slope (a relay without a worker metric), its count is that slope, next to
   * the wire turns per OK-true answer and the ceiling's reading: the ceiling's slope there answers
   * whether the link bounds the ceiling, not how many round trips an event makes.
   */
  static String answer(List<LinkSweepsReport.Row> rows, boolean complete) {
    List<String> parts = new ArrayList<>();
    for (LinkSweepsReport.Row r : rows) {
      if (r.latencyRoundTrips() != null) {
        parts.add(latencyPart(r));
        continue;
      }
      Estimate k = r.roundTripsPerEvent();
      Double turns =
          r.wireTurnsPerEvent() != null ? r.wireTurnsPerEvent() : r.wireTurnsPerEventAllCells();
      String wire =
          turns == null
              ? "no wire count"
              : String.format(Locale.ROOT, "wire %.2f", turns)
                  + (r.wireTurnsPerEvent() == null ? " over every cell" : "");
      parts.add(
          "'"
              + r.link()
              + "' "
              + (k == null || !Boolean.TRUE.equals(r.lineHolds())
                  ? "no count"
                  : String.format(
                      Locale.ROOT, "%.1f [%.1f, %.1f]", k.value(), k.lower(), k.upper()))
              + " ("
              + wire
              + (r.reading() == null ? "" : ", " + r.reading())
              + ")");
    }
    String table = parts.isEmpty() ? "no link swept yet" : String.join(", ", parts);
    return "sequential round trips per event by link: " + table + (complete ? "" : " (partial)");
  }

  /** "'db' 1.0 [0.8, 1.3] on the OK path (wire 1.00; ceiling: not what bounds it)". */
  private static String latencyPart(LinkSweepsReport.Row r) {
    Estimate k = r.latencyRoundTrips();
    Double wire = r.latencyWireTurnsPerOkTrue();
    return "'"
        + r.link()
        + "' "
        + (Boolean.TRUE.equals(r.latencyLineHolds())
            ? String.format(
                Locale.ROOT, "%.1f [%.1f, %.1f] on the OK path", k.value(), k.lower(), k.upper())
            : "no count on the OK path (its latency line does not hold)")
        + " ("
        + (wire == null ? "no wire count" : String.format(Locale.ROOT, "wire %.2f", wire))
        + (r.reading() == null ? "" : ", " + r.reading())
        + (r.ceilingReading() == null ? "" : "; ceiling: " + r.ceilingReading())
        + ")";
  }
}
