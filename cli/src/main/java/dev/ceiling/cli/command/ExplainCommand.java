package dev.ceiling.cli.command;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.Logging;
import dev.ceiling.cli.internal.ConsoleProgress;
import dev.ceiling.cli.report.DefaultsRoundHtml;
import dev.ceiling.cli.report.DelaySweepHtml;
import dev.ceiling.cli.report.Dossier;
import dev.ceiling.cli.report.DossierHtml;
import dev.ceiling.cli.report.HtmlReport;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.experiment.DelaySweepFile;
import dev.ceiling.experiment.Experiment;
import dev.ceiling.experiment.ExperimentException;
import dev.ceiling.experiment.Explain;
import dev.ceiling.experiment.ExplainPlan;
import dev.ceiling.experiment.ExplainResult;
import dev.ceiling.experiment.IdentitiesRoundReport;
import dev.ceiling.experiment.SweepOptions;
import dev.ceiling.rig.RelayProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ceiling explain}: every round a profile allows, on one plan, and the dossier. */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    resourceBundle = "dev.ceiling.cli.command.ExplainCommand",
    header = "Every round a profile allows, and one dossier of answers.",
    description = {
      "On one plan, written to explain-plan.json before the first cell: the A/B of the"
          + " profile's named path (ab/), the delay sweep on each declared link"
          + " (delay-sweep-LINK/), the defaults round when the profile declares admission limits"
          + " (defaults/) and the lock round when it declares two communities (split/). A round"
          + " that cannot run on the profile says why in one line; one that fails says so and the"
          + " others still run. Prints the estimate of the whole run first, then each round's"
          + " progress.",
      "Writes dossier.json and dossier.html: every round's answer in one paragraph, each round's"
          + " own sentence from its own file, then each round's page. Ctrl-C stops after the"
          + " running cell (exit 130); --resume DIR continues: a finished round is not measured"
          + " again, the A/B and the delay sweeps continue through their own resume, the lock and"
          + " defaults rounds are measured anew.",
      "Exit codes: 0 every round that runs established, 1 not established (or a round failed or"
          + " was not finished), 2 bad usage or input, 3 infrastructure failure.",
      ""
    })
public final class ExplainCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin MeasuringOptions.Profile profile = new MeasuringOptions.Profile();

  @Option(
      names = "--rates",
      defaultValue = "auto",
      description =
          "Offered rates in events/s for the A/B and the lock round (the defaults round offers"
              + " the highest), or 'auto': each round's own grid from the relay's calibration, as"
              + " experiment places it (default: ${DEFAULT-VALUE}).")
  String rates;

  @Mixin MeasuringOptions.Window duration = new MeasuringOptions.Window();

  @Mixin MeasuringOptions.Warmup warmup = new MeasuringOptions.Warmup();

  @Mixin MeasuringOptions.LagBound lagBound = new MeasuringOptions.LagBound();

  @Mixin MeasuringOptions.Repeats repeats = new MeasuringOptions.Repeats();

  @Mixin MeasuringOptions.Seed seed = new MeasuringOptions.Seed();

  @Option(
      names = "--sweep-rate",
      paramLabel = "EVENTS_PER_S",
      converter = CommandLines.FiniteDouble.class,
      description =
          "Every delay sweep's one offered rate. Default: the sweep's own (per point, from the"
              + " relay's predicted ceiling, or where it predicts none, the ceiling a ramp of rising"
              + " offers measured first, once per link, which the estimate leaves out).")
  Double sweepRate;

  @Option(
      names = "--identities",
      split = ",",
      paramLabel = "N",
      defaultValue = "10,100,500",
      description = "The defaults round's grid of signing keys (default: ${DEFAULT-VALUE}).")
  List<Integer> identities;

  @Mixin MeasuringOptions.DelayGrid grid = new MeasuringOptions.DelayGrid();

  @Mixin WhatIfOption whatIf = new WhatIfOption();

  @Mixin MeasuringOptions.Out out = new MeasuringOptions.Out();

  @Mixin MeasuringOptions.Resume resume = new MeasuringOptions.Resume();

  @Mixin MeasuringOptions.Verbose verbose = new MeasuringOptions.Verbose();

  @Mixin MeasuringOptions.Quiet quiet = new MeasuringOptions.Quiet();

  private static final Path REPORTS = Path.of("ceiling-reports");

  @Override
  public Integer call() {
    List<Double> fixedRates = check();
    Logging.verbose(verbose.verbose);
    PrintWriter err = spec.commandLine().getErr();
    Path dir;
    try {
      dir = resume.or(out) != null ? resume.or(out) : Experiment.newRunDirectory(REPORTS);
    } catch (IOException e) {
      CommandLines.error(err, "cannot create the output directory: " + e.getMessage());
      return ExitCode.INFRASTRUCTURE;
    }
    // Each round's own hook stops it after the running cell on Ctrl-C; explain's own stops the
    // next round from starting; this one holds the exit until the dossier is written, then 130.
    return RoundLines.holdingExit(
        () -> {
          ExplainResult r;
          try {
            r = explain(fixedRates, dir).run();
          } catch (ExperimentException e) {
            CommandLines.error(err, e.getMessage());
            return ExitCode.USAGE;
          }
          return finish(r, err);
        });
  }

  /** The engine with this command's options. */
  private Explain.Builder explain(List<Double> fixedRates, Path dir) throws ExperimentException {
    return Explain.builder()
        .profile(profile.resolve(new OptionChecks()))
        .relayOverrides(profile.params)
        .duration(duration.value())
        .warmup(warmup.value())
        .repeats(repeats.n)
        .seed(seed.seed)
        .rates(fixedRates)
        .delaysMs(grid.delaysMs)
        .holdoutAt(whatIf.byLink())
        .sweepRate(sweepRate)
        .latencyRate(grid.latencyRate)
        .identities(identities)
        .sweepOptions(
            SweepOptions.defaults(Path.of("journal.jsonl")).withSendLagBound(lagBound.value))
        .outDir(dir)
        .resume(resume.dir != null)
        .progress(new ExplainLines(spec.commandLine().getErr(), quiet.quiet))
        .cellProgress(
            ConsoleProgress.forStderr(spec.commandLine().getErr(), verbose.verbose, quiet.quiet))
        .sweepProgress(new DelaySweepLines(spec.commandLine().getErr(), quiet.quiet))
        .abExtra(b -> b.alsoRender("report.html", HtmlReport::render));
  }

  /** The delay sweeps' pages, the dossier, the answers printed; the exit code. */
  private int finish(ExplainResult r, PrintWriter err) {
    // Each round's own page beside its file, for the rounds that have one (the A/B draws its own).
    for (ExplainResult.RoundEnd e : r.rounds()) {
      if (e.file() == null
          || (e.kind() != ExplainPlan.Kind.DELAY_SWEEP && e.kind() != ExplainPlan.Kind.DEFAULTS)) {
        continue;
      }
      Path json = r.outDir().resolve(e.file());
      boolean sweep = e.kind() == ExplainPlan.Kind.DELAY_SWEEP;
      Path html = json.resolveSibling(sweep ? DelaySweepHtml.FILE : DefaultsRoundHtml.FILE);
      try {
        Files.writeString(
            html,
            sweep
                ? DelaySweepHtml.render(DelaySweepFile.read(json))
                : DefaultsRoundHtml.render(Json.read(json, IdentitiesRoundReport.class)));
      } catch (IOException | ExperimentException | ReportFormatException | RuntimeException x) {
        CommandLines.error(err, "cannot write " + html + " (" + x.getMessage() + ")");
      }
    }
    Dossier d = Dossier.of(r);
    Path json = r.outDir().resolve(Dossier.FILE);
    Path html = r.outDir().resolve(DossierHtml.FILE);
    PrintWriter o = spec.commandLine().getOut();
    try {
      Json.write(json, d);
      Files.writeString(html, DossierHtml.render(d));
    } catch (IOException | RuntimeException x) {
      CommandLines.error(err, "cannot write the dossier in " + r.outDir() + ": " + x);
      o.println(d.answers());
      o.flush();
      return ExitCode.INFRASTRUCTURE;
    }
    o.println(d.answers());
    if (!quiet.quiet) {
      for (Dossier.Entry e : d.rounds()) {
        o.println(
            "  "
                + e.round()
                + ": "
                + e.status().words()
                + (e.page() == null ? "" : " (" + e.page() + ")"));
      }
      err.println("written to " + r.outDir().toAbsolutePath() + ":");
      err.println("  " + DossierHtml.FILE + "  " + html.toAbsolutePath());
      err.println("  " + Dossier.FILE + "  " + json.toAbsolutePath());
      err.println("  " + Explain.PLAN_FILE + " and each round's directory beside them");
    }
    o.flush();
    err.flush();
    return ExitCode.of(r.outcome());
  }

  /** Every bad argument at once, before anything starts: one usage line naming each. */
  private List<Double> check() {
    OptionChecks checks = new OptionChecks();
    duration.check(checks);
    warmup.check(checks);
    repeats.check(checks, 2);
    List<Double> fixedRates = null;
    if (!"auto".equals(rates)) {
      try {
        fixedRates = ExperimentCommand.parse(rates);
        checks.rates("--rates", fixedRates).planSize(fixedRates, duration.seconds, warmup.seconds);
      } catch (RuntimeException e) {
        checks.add("--rates must be 'auto' or numbers like 100,200, got '" + rates + "'");
      }
    }
    if (sweepRate != null) {
      checks.positive("--sweep-rate", sweepRate, OptionChecks.MAX_RATE_PER_S, "events/s");
    }
    grid.check(checks, sweepRate, "--sweep-rate");
    for (int n : identities) {
      checks.between("--identities", n, 1, SweepOptions.MAX_IDENTITIES, "");
    }
    verbose.check(checks, quiet);
    resume.check(checks, out, "run");
    if (resume.dir != null
        && Files.isDirectory(resume.dir)
        && !Files.exists(resume.dir.resolve(Explain.PLAN_FILE))) {
      checks.add("--resume: " + resume.dir + " holds no " + Explain.PLAN_FILE);
    }
    if (out.dir != null && Files.exists(out.dir.resolve(Explain.PLAN_FILE))) {
      checks.add(
          "--out "
              + out.dir
              + " already holds an "
              + Explain.PLAN_FILE
              + "; choose a new directory, or continue it with --resume "
              + out.dir);
    }
    RelayProfile p = profile.resolve(checks);
    if (p != null) {
      profile.checkParams(checks, p);
      // explain sweeps every declared link in turn, so any of them may carry a what-if.
      whatIf.check(checks, p.linkNames(), p.linkNames(), grid.delaysMs);
    }
    checks.orFail(spec.commandLine());
    return fixedRates;
  }
}
