package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Logging;
import dev.ceiling.cli.report.DelaySweepHtml;
import dev.ceiling.cli.report.LinksHtml;
import dev.ceiling.experiment.DelaySweep;
import dev.ceiling.experiment.DelaySweepOptions;
import dev.ceiling.experiment.DelaySweepResult;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.LinkSweeps;
import dev.ceiling.experiment.LinkSweepsResult;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ceiling delay-sweep} (also {@code ceiling sensitivity}, its first name): the delay sweep
 * on one TCP link of the relay, or on each of its links in turn.
 */
@Command(
    name = "delay-sweep",
    aliases = "sensitivity",
    mixinStandardHelpOptions = true,
    resourceBundle = "dev.ceiling.cli.command.DelaySweepCommand",
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
      "'ceiling sensitivity' is this command under its first name, kept as an alias.",
      ""
    })
public final class DelaySweepCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin MeasuringOptions.Profile profile = new MeasuringOptions.Profile();

  @Option(
      names = "--link",
      paramLabel = "NAME",
      description =
          "The link to sweep, an upstream or a delay control (default: the profile's only"
              + " link; with several, each in turn).")
  String link;

  @Mixin MeasuringOptions.DelayGrid grid = new MeasuringOptions.DelayGrid();

  @Mixin MeasuringOptions.Repeats repeats = new MeasuringOptions.Repeats();

  @Mixin MeasuringOptions.Window duration = new MeasuringOptions.Window();

  @Option(
      names = "--rate",
      paramLabel = "EVENTS_PER_S",
      converter = CommandLines.FiniteDouble.class,
      description =
          "One offered rate at every delay. Default: per point, 1.5 x the ceiling that the line"
              + " through the cells before predicts at the cell's delay (plus what fills the relay's"
              + " queue within half the warm-up), at most and at first 1.5 x the relay's predicted"
              + " ceiling, or where it predicts none, the ceiling a ramp of rising offers measured"
              + " first (in the plan).")
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

  @Mixin MeasuringOptions.Seed seed = new MeasuringOptions.Seed();

  @Option(
      names = "--contrast",
      paramLabel = "NAME=VALUE",
      description =
          "A second arm: the same plan again on a relay started with this profile parameter"
              + " changed, e.g. synchronous_commit=off (repeatable). The slopes must agree; the"
              + " intercept difference is what it costs per event. Writes contrast.json and"
              + " contrast/.")
  Map<String, String> contrast = new TreeMap<>();

  @Mixin WhatIfOption whatIf = new WhatIfOption();

  @Mixin MeasuringOptions.Out out = new MeasuringOptions.Out();

  @Mixin MeasuringOptions.Resume resume = new MeasuringOptions.Resume();

  @Mixin MeasuringOptions.Quiet quiet = new MeasuringOptions.Quiet();

  @Mixin MeasuringOptions.Identities identities = new MeasuringOptions.Identities();

  @Override
  public Integer call() {
    RelayProfile p = profile();
    if (link == null && p.linkNames().size() == 1) {
      link = p.linkNames().get(0);
    }
    DeclaredCounts counts = DeclaredCounts.parse(expectRoundTrips);
    check(p, counts);
    Logging.verbose(false);
    RoundLines.Console console = quiet.console(spec);
    Path dir;
    try {
      dir = resume.or(out) != null ? resume.or(out) : Experiment.newRunDirectory(REPORTS);
    } catch (IOException e) {
      CommandLines.error(console.err(), "cannot create the output directory: " + e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    DelaySweepOptions.Builder b = options(p, dir, console.err());
    return RoundLines.holdingExit(
        () ->
            link == null
                ? RoundLines.run(
                    b.links(p.linkNames()).expectRoundTripsByLink(counts.byLink())::runLinks,
                    console,
                    r -> links(r, dir, console))
                : RoundLines.run(
                    b.link(link).expectRoundTrips(counts.forLink(link))::run,
                    console,
                    r -> sweep(r, dir, console)));
  }

  private static final Path REPORTS = Path.of("ceiling-reports");

  /**
   * The profile, or a usage error naming {@code --profile}: every other check reads its links, so a
   * profile that does not resolve is the one problem reported.
   */
  private RelayProfile profile() {
    OptionChecks checks = new OptionChecks();
    RelayProfile p = profile.resolve(checks);
    checks.orFail(spec.commandLine());
    return p;
  }

  /** Writes the sweep's pages and prints its answer; the exit code. */
  private static int sweep(DelaySweepResult r, Path dir, RoundLines.Console c) {
    Path html =
        r.report() == null
            ? null
            : writePage(
                dir.resolve(DelaySweepHtml.FILE),
                () -> DelaySweepHtml.render(r.report()),
                DelaySweep.REPORT_FILE + " holds every cell",
                c);
    if (r.contrast() != null && r.contrast().contrast() != null) {
      writePage(
          dir.resolve(DelaySweepOptions.CONTRAST_DIR).resolve(DelaySweepHtml.FILE),
          () -> DelaySweepHtml.render(r.contrast().contrast()),
          DelaySweep.REPORT_FILE + " holds every cell",
          c);
    }
    return DelaySweepLines.finish(r, html, c);
  }

  /** Writes each link's page and links.html, then prints the table; the exit code. */
  private static int links(LinkSweepsResult r, Path dir, RoundLines.Console c) {
    r.sweeps()
        .forEach(
            (name, s) -> {
              if (s.report() != null) {
                writePage(
                    dir.resolve(name).resolve(DelaySweepHtml.FILE),
                    () -> DelaySweepHtml.render(s.report()),
                    DelaySweep.REPORT_FILE + " holds every cell",
                    c);
              }
            });
    Path html =
        r.report() == null
            ? null
            : writePage(
                r.file().resolveSibling(LinksHtml.FILE),
                () -> LinksHtml.render(r.report()),
                r.file() + " holds every link's row",
                c);
    return DelaySweepLines.finishLinks(r, html, c);
  }

  /** Everything but the link and the declared count. */
  private DelaySweepOptions.Builder options(RelayProfile p, Path dir, PrintWriter err) {
    return DelaySweep.builder()
        .profile(p)
        .delaysMs(grid.delaysMs)
        .repeats(repeats.n)
        .duration(duration.value())
        .margin(margin)
        .seed(seed.seed)
        .relayOverrides(profile.params)
        .contrast(contrast)
        .sweepOptions(
            SweepOptions.defaults(dir.resolve("journal.jsonl"))
                .withWarmup(Duration.ofSeconds(1))
                .withIdentities(identities.value()))
        .outDir(dir)
        .progress(new DelaySweepLines(err, quiet.quiet))
        .rate(rate)
        .latencyRate(grid.latencyRate)
        .holdoutAt(whatIf.byLink())
        .resume(resume.dir != null);
  }

  /**
   * Writes a page beside the JSON that {@code holds} what it shows; a page that cannot be drawn or
   * written is said and costs nothing measured. Returns its path, or null.
   */
  private static Path writePage(
      Path html, Supplier<String> render, String holds, RoundLines.Console c) {
    try {
      Files.writeString(html, render.get());
      return html;
    } catch (IOException | RuntimeException e) {
      CommandLines.error(c.err(), "cannot write " + html + " (" + e + "); " + holds);
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
        .relayOverrides(profile.params)
        .contrast(contrast)
        .link(link)
        .contrastProblems()
        .stream()
        .map(q -> "--" + q.option() + " " + q.text())
        .toList();
  }

  /** Every bad argument at once, before anything starts: one usage line naming each. */
  private void check(RelayProfile p, DeclaredCounts counts) {
    OptionChecks checks = new OptionChecks();
    duration.check(checks);
    repeats.check(checks, 2);
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
      counts.check(checks, link == null ? links : List.of(link), links);
    }
    if (link == null && links.size() > 1 && !contrast.isEmpty()) {
      checks.add(
          "--contrast sweeps one link: give --link with it (the profile declares " + links + ")");
    }
    grid.check(checks, rate, "--rate");
    if (!links.isEmpty()) {
      whatIf.check(checks, link == null ? links : List.of(link), links, grid.delaysMs);
    }
    resume.check(checks, out, "sweep");
    if (resume.dir != null && link == null && links.size() > 1) {
      checks.add(
          "--resume continues one link's sweep: give --link with it (the profile declares "
              + links
              + ")");
    }
    if (out.dir != null && Files.exists(out.dir.resolve(DelaySweep.REPORT_FILE))) {
      checks.add(
          "--out "
              + out.dir
              + " already holds a sensitivity.json; choose a new directory, or continue it with"
              + " --resume "
              + out.dir);
    }
    if (out.dir != null && Files.exists(out.dir.resolve(LinkSweeps.FILE))) {
      checks.add(
          "--out " + out.dir + " already holds a " + LinkSweeps.FILE + "; choose a new directory");
    }
    profile.checkParams(checks, p);
    contrastProblems(p).forEach(checks::add);
    checks.orFail(spec.commandLine());
  }
}
