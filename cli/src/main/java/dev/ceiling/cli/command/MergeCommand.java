package dev.ceiling.cli.command;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.Checks;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.SegmentMerge;
import dev.ceiling.generator.SegmentMergeException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ceiling merge SEG.json... --json OUT}: the reports of segments 0/N .. (N-1)/N of one
 * schedule (one configuration, one {@code --start-at}) into the report one process offering the
 * whole schedule would have written.
 */
@Command(
    name = "merge",
    mixinStandardHelpOptions = true,
    header = "Merge segment reports of one schedule into one report.",
    description = {
      "The inputs are the generator reports of segments 0/N .. (N-1)/N of one schedule. Counts"
          + " are summed and latencies merged from the raw histograms (never averaged); the"
          + " self-check is ORed with each segment's reason. Refused, listing every problem,"
          + " unless the inputs are each segment exactly once, of one configuration and one"
          + " --start-at instant.",
      "Exit codes: 0 merged (read generator_bound), 2 bad or mismatched input, 3 cannot write.",
      ""
    })
public final class MergeCommand implements Callable<Integer> {
  @Parameters(
      arity = "1..*",
      paramLabel = "SEG.json",
      description = "Segment reports written by 'ceiling generate --segment i/N --start-at ...'.")
  List<Path> segments = new ArrayList<>();

  @Option(
      names = "--json",
      required = true,
      paramLabel = "OUT",
      description = "Write the merged generator report here.")
  Path json;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    OutputPaths files = new OutputPaths();
    for (int i = 0; i < segments.size(); i++) {
      files.input("SEG.json #" + (i + 1), segments.get(i));
    }
    new OptionChecks().files(files.output("--json", json)).orFail(spec.commandLine());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Checks problems = new Checks();
    List<SegmentMerge.Input> inputs = new ArrayList<>();
    for (Path p : segments) {
      try {
        inputs.add(new SegmentMerge.Input(p.toString(), Json.read(p, GeneratorReport.class)));
      } catch (ReportFormatException e) {
        problems.add(e.getMessage());
      }
    }
    GeneratorReport merged = null;
    if (problems.ok()) {
      try {
        merged = SegmentMerge.merge(inputs);
      } catch (SegmentMergeException e) {
        e.problems().forEach(problems::add);
      }
    }
    try {
      problems.orThrow();
    } catch (IllegalArgumentException e) {
      err.println("error: cannot merge: " + e.getMessage());
      err.flush();
      return ExitCode.USAGE;
    }
    try {
      Json.write(json, merged);
    } catch (IOException e) {
      err.println("error: cannot write " + json + ": " + e.getMessage());
      err.flush();
      return ExitCode.INFRASTRUCTURE;
    }
    GeneratorReport.Result a = merged.aggregate();
    out.println(
        String.format(
            Locale.ROOT,
            "merged %d segments into %s: planned %d, sent %d, accepted %d, scheduled p99 %s ms",
            inputs.size(),
            json,
            a.slotsPlanned(),
            a.slotsSent(),
            a.accepted(),
            a.scheduled().p99Ms()));
    out.flush();
    if (merged.generatorBound()) {
      err.println("merge: GENERATOR BOUND: " + merged.generatorBoundReason());
      err.flush();
    }
    return ExitCode.ESTABLISHED;
  }
}
