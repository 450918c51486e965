package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Logging;
import dev.ceiling.cli.report.LinksHtml;
import dev.ceiling.cli.report.SensitivityHtml;
import dev.ceiling.experiment.DelaySweep;
import dev.ceiling.experiment.DelaySweepOptions;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentException;
import dev.ceiling.experiment.LinkSweeps;
import dev.ceiling.experiment.LinkSweepsResult;
import dev.ceiling.experiment.SensitivityPlan;
import dev.ceiling.experiment.SensitivityReport;
import dev.ceiling.experiment.SensitivityResult;
import dev.ceiling.experiment.ShutdownHook;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.UpOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ceiling sensitivity}: the delay sweep on one TCP link of the relay, or on each of its
 * links in turn.
 */
@Command(
    name = "sensitivity",
    mixinStandardHelpOptions = true,
    header = "Round trips per event on each link, by a delay sweep.",
    description = {
      "Brings the relay up once with a delay proxy on each upstream its profile declares, fixes"
          + " and writes the plan, then measures the worker's ceiling C at each added round-trip"
          + " delay d (in shuffled order, every A/B exclusion rule applied) and fits"
          + " 1/C = k d + c: k is the round trips per event, checked against the lack-of-fit test"
          + " and the proxy's own wire count, and against --expect-round-trips when given. A"
          + " profile's delay control is a link too: a delay the relay injects itself and lets"
          + " the sweep set while it runs (the reference relay's 'builtin' in --profile"
          + " reference), its round trips counted by the relay.",
      "On a profile with several links and no --link, sweeps each link in turn on a relay"
          + " started for it (the other links at zero added delay), on the same grid, each in its"
          + " own directory named after the link,"
          + " and writes links.json: the plan of every link before the first cell, then the"
          + " table of round trips per event on each link next to its wire count.",
      "Writes sensitivity.json after every cell and sensitivity.html (the answer, the line and"
          + " every cell) at the end; with --contrast, the second arm's in contrast/ and both"
          + " compared in contrast.json. Exit codes: 0 established (the line holds and k is"
          + " consistent with the declared count; with --contrast, in both arms, and their slopes"
          + " agree; with several links, on every link), 1 not established, 2 bad usage, 3"
          + " infrastructure failure. --resume DIR continues an interrupted sweep.",
      ""
    })
public final class SensitivityCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--profile",
      defaultValue = "reference-linked",
      description = "Built-in profile name or profile JSON file (default: ${DEFAULT-VALUE}).")
  String profile;

  @Option(
      names = "--link",
      paramLabel = "NAME",
      description =
          "The link to sweep, an upstream or a delay control (default: the profile's only"
              + " link; with several, each in turn).")
  String link;

  @Option(
      names = "--delays",
      split = ",",
      paramLabel = "MS",
      converter = CommandLines.FiniteDouble.class,
      defaultValue = "0,0.5,1,2,3,4",
      description = "Added round-trip delays, ms, ascending (default: ${DEFAULT-VALUE}).")
  List<Double> delaysMs;

  @Option(
      names = "--repeats",
      paramLabel = "N",
      defaultValue = "3",
      description = "Cells per delay, at least 2 (default: ${DEFAULT-VALUE}).")
  int repeats;

  @Option(
      names = "--duration",
      paramLabel = "SECONDS",
      defaultValue = "3",
      converter = CommandLines.FiniteDouble.class,
      description = "Measurement window per cell, seconds (default: ${DEFAULT-VALUE}).")
  double durationS;

  @Option(
      names = "--rate",
      paramLabel = "EVENTS_PER_S",
      converter = CommandLines.FiniteDouble.class,
      description = {
        "One offered rate at every delay. Default: per point, 1.5 x the ceiling that the line",
        "through the cells before predicts at the cell's delay (plus what fills the relay's queue",
        "within half the warm-up), at most and at first 1.5 x the relay's predicted ceiling."
      })
  Double rate;

  @Option(
      names = DeclaredCounts.OPTION,
      paramLabel = "K|NAME=K[,NAME=K...]",
      description =
          "The count declared before the run, tested with TOST within --margin: one count for"
              + " one link, or one per link for a sweep per link, e.g. a=2,b=3.")
  String expectRoundTrips;

  @Option(
      names = "--margin",
      paramLabel = "ROUND_TRIPS",
      defaultValue = "0.5",
      converter = CommandLines.FiniteDouble.class,
      description = "Equivalence margin around the declared count (default: ${DEFAULT-VALUE}).")
  double margin;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "Seed of the cell order (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--param",
      paramLabel = "NAME=VALUE",
      description = "Override a profile port or parameter, NAME=VALUE (repeatable).")
  Map<String, String> params = new TreeMap<>();

  @Option(
      names = "--contrast",
      paramLabel = "NAME=VALUE",
      description =
          "A second arm: the same plan again on a relay started with this profile parameter"
              + " changed, e.g. synchronous_commit=off (repeatable). The slopes must agree; the"
              + " intercept difference is what it costs per event. Writes contrast.json and"
              + " contrast/.")
  Map<String, String> contrast = new TreeMap<>();

  @Option(names = "--out", description = "Output directory (default: ceiling-reports/<timestamp>).")
  Path out;

  @Option(
      names = "--resume",
      paramLabel = "DIR",
      description = {
        "Continue the interrupted or partial sweep in DIR (its --out): its sensitivity.json's plan",
        "is the plan (its offer and offer rule included), only the planned cells not in the file",
        "run, on a relay started afresh, and every cell in the file is kept. Pass the options the",
        "sweep was started with (--rate may be left out); a different plan, a missing, unreadable",
        "or complete file, or a relay that differs from the stored one is refused (exit 2)."
      })
  Path resume;

  @Option(names = "--quiet", description = "Print only the answer and warnings.")
  boolean quiet;

  @Mixin IdentitiesOption identities = new IdentitiesOption();

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    RelayProfile p;
    try {
      p = RelayProfile.resolve(profile);
    } catch (RigException e) {
      throw CommandLines.usage(spec.commandLine(), "--profile: " + e.getMessage());
    }
    if (link == null && p.linkNames().size() == 1) {
      link = p.linkNames().get(0);
    }
    DeclaredCounts counts = DeclaredCounts.parse(expectRoundTrips);
    check(p, counts);
    Logging.verbose(false);
    Path dir;
    try {
      dir =
          resume != null
              ? resume
              : out != null ? out : Experiment.newRunDirectory(Path.of("ceiling-reports"));
    } catch (IOException e) {
      CommandLines.error(err, "cannot create the output directory: " + e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    // The sweep's own hook stops it after the running cell on Ctrl-C or SIGTERM; this one holds
    // the exit until the answer and the file's path are printed, then exits 130 (as experiment).
    ShutdownHook holdExit =
        ShutdownHook.install(
            "ceiling-print-before-exit",
            () -> {},
            ExperimentCommand.PRINT_GRACE,
            () -> Runtime.getRuntime().halt(ExitCode.INTERRUPTED));
    try {
      return link == null ? sweepLinks(p, counts, dir, err) : sweep(p, counts, dir, err);
    } finally {
      holdExit.close();
    }
  }

  /** Runs the sweep and prints its answer; the exit code. */
  private int sweep(RelayProfile p, DeclaredCounts counts, Path dir, PrintWriter err) {
    SensitivityResult r;
    try {
      r = options(p, dir, err).link(link).expectRoundTrips(counts.forLink(link)).run();
    } catch (ExperimentException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.USAGE;
    }
    Path html = r.report() == null ? null : writeHtml(r.report(), dir, err);
    if (r.contrast() != null && r.contrast().contrast() != null) {
      writeHtml(
          r.contrast().contrast(),
          dir.resolve(dev.ceiling.experiment.DelaySweepOptions.CONTRAST_DIR),
          err);
    }
    return SensitivityLines.finish(spec.commandLine().getOut(), err, r, html, quiet);
  }

  /** Sweeps each link in turn, then prints the table; the exit code. */
  private int sweepLinks(RelayProfile p, DeclaredCounts counts, Path dir, PrintWriter err) {
    LinkSweepsResult r;
    try {
      r =
          options(p, dir, err)
              .links(p.linkNames())
              .expectRoundTripsByLink(counts.byLink())
              .runLinks();
    } catch (ExperimentException e) {
      CommandLines.error(err, e.getMessage());
      return ExitCode.USAGE;
    }
    r.sweeps()
        .forEach(
            (name, s) -> {
              if (s.report() != null) {
                writeHtml(s.report(), dir.resolve(name), err);
              }
            });
    Path html = r.report() == null ? null : writeLinksHtml(r, err);
    return SensitivityLines.finishLinks(spec.commandLine().getOut(), err, r, html, quiet);
  }

  /** Everything but the link and the declared count. */
  private DelaySweepOptions.Builder options(RelayProfile p, Path dir, PrintWriter err) {
    return DelaySweep.builder()
        .profile(p)
        .delaysMs(delaysMs)
        .repeats(repeats)
        .duration(Duration.ofNanos(Math.round(durationS * 1e9)))
        .margin(margin)
        .seed(seed)
        .relayOverrides(params)
        .contrast(contrast)
        .sweepOptions(
            SweepOptions.defaults(dir.resolve("journal.jsonl"))
                .withWarmup(Duration.ofSeconds(1))
                .withIdentities(identities.value()))
        .outDir(dir)
        .progress(new SensitivityLines(err, quiet))
        .rate(rate)
        .resume(resume != null);
  }

  /**
   * Writes the page beside sensitivity.json; a page that cannot be drawn or written is said and
   * costs nothing measured (the JSON holds every cell). Returns its path, or null.
   */
  private static Path writeHtml(SensitivityReport report, Path dir, PrintWriter err) {
    Path html = dir.resolve(SensitivityHtml.FILE);
    try {
      Files.writeString(html, SensitivityHtml.render(report));
      return html;
    } catch (IOException | RuntimeException e) {
      CommandLines.error(
          err,
          "cannot write " + html + " (" + e + "); " + DelaySweep.REPORT_FILE + " holds every cell");
      return null;
    }
  }

  /** Writes links.html beside links.json, like {@link #writeHtml}; its path, or null. */
  private static Path writeLinksHtml(LinkSweepsResult r, PrintWriter err) {
    Path html = r.file().resolveSibling(LinksHtml.FILE);
    try {
      Files.writeString(html, LinksHtml.render(r.report()));
      return html;
    } catch (IOException | RuntimeException e) {
      CommandLines.error(
          err, "cannot write " + html + " (" + e + "); " + r.file() + " holds every link's row");
      return null;
    }
  }

  /** The sweep's own checks of --contrast, named by the flag. */
  private List<String> contrastProblems(RelayProfile p) {
    if (contrast.isEmpty()) {
      return List.of();
    }
    return DelaySweep.builder()
        .profile(p)
        .relayOverrides(params)
        .contrast(contrast)
        .link(link)
        .contrastProblems()
        .stream()
        .map(q -> "--" + q)
        .toList();
  }

  /** Every bad argument at once, before anything starts: one usage line naming each. */
  private void check(RelayProfile p, DeclaredCounts counts) {
    OptionChecks checks =
        new OptionChecks()
            .positive("--duration", durationS, OptionChecks.MAX_DURATION_S, "seconds")
            .between("--repeats", repeats, 2, OptionChecks.MAX_REPEATS, "");
    if (rate != null) {
      checks.positive("--rate", rate, OptionChecks.MAX_RATE_PER_S, "events/s");
    }
    checks.positive("--margin", margin, 1_000_000, "round trips");
    identities.check(checks);
    List<String> links = p.linkNames();
    if (links.isEmpty()) {
      checks.add(
          "--link is required: profile '"
              + p.name()
              + "' declares no link (no upstreams, no delay controls)");
    } else if (link != null && !links.contains(link)) {
      checks.add("--link '" + link + "' is not a link of profile '" + p.name() + "': " + links);
    } else {
      counts.problemsFor(link == null ? links : List.of(link), links).forEach(checks::add);
    }
    if (link == null && links.size() > 1 && !contrast.isEmpty()) {
      checks.add(
          "--contrast sweeps one link: give --link with it (the profile declares " + links + ")");
    }
    SensitivityPlan.problemsOfGrid(delaysMs).forEach(q -> checks.add("--" + q));
    if (resume != null && out != null) {
      checks.add("--resume DIR continues the sweep in DIR; it cannot be combined with --out");
    } else if (resume != null && !Files.isDirectory(resume)) {
      checks.add("--resume: " + resume + " is not a directory");
    }
    if (resume != null && link == null && links.size() > 1) {
      checks.add(
          "--resume continues one link's sweep: give --link with it (the profile declares "
              + links
              + ")");
    }
    if (out != null && Files.exists(out.resolve(DelaySweep.REPORT_FILE))) {
      checks.add(
          "--out "
              + out
              + " already holds a sensitivity.json; choose a new directory, or continue it with"
              + " --resume "
              + out);
    }
    if (out != null && Files.exists(out.resolve(LinkSweeps.FILE))) {
      checks.add(
          "--out " + out + " already holds a " + LinkSweeps.FILE + "; choose a new directory");
    }
    try {
      UpOptions.of(p, p.treatmentArm(), Path.of(".")).withOverrides(params);
    } catch (IllegalArgumentException e) {
      checks.add("--param: " + e.getMessage());
    }
    contrastProblems(p).forEach(checks::add);
    checks.orFail(spec.commandLine());
  }
}
