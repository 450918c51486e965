package dev.ceiling.experiment.internal;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.generator.Generator;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.GeneratorReport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The main class of one generator child process of a scaled-out cell ({@link
 * dev.ceiling.experiment.GeneratorProcesses}): {@code GeneratorChild SPEC.json REPORT.json} runs
 * the {@link SegmentSpec} and writes its report. Not the picocli {@code generate} command: the
 * experiment API is used without picocli on the class path (the junit extension, a user's build),
 * and a spec file needs no quoting of tags or Host headers.
 *
 * <p>The start instant comes from the parent once this process is ready ({@link StartHandshake}:
 * "ready" on stdout, the instant on stdin). Progress goes to stderr, one line each; the last line
 * before a non-zero exit is the reason. Exit codes: 0 report written, 2 bad configuration, 3
 * infrastructure failure (including "not ready at the start instant": the instant came too late to
 * keep), {@link StdinStartGate#PARENT_GONE} the parent went away (its end of our stdin closed),
 * {@link #STARTED_LATE} the generator's own check that a fixed start instant had passed before it
 * began (mapped for completeness: a child gets its instant only when ready, so it does not start
 * late).
 */
public final class GeneratorChild {
  private GeneratorChild() {}

  /**
   * The exit code for {@link GeneratorException.Kind#STARTED_LATE}: a start instant that had passed
   * before the run began (an infrastructure failure for the parent, never a configuration error).
   */
  public static final int STARTED_LATE = 5;

  /** The exit code for a generator failure of {@code kind}. */
  public static int exitCode(GeneratorException.Kind kind) {
    return switch (kind) {
      case CONFIG -> 2;
      case STARTED_LATE -> STARTED_LATE;
      case INFRASTRUCTURE -> 3;
    };
  }

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("error: usage: GeneratorChild SPEC.json REPORT.json");
      System.exit(2);
    }
    int code;
    try {
      SegmentSpec spec = Json.read(Path.of(args[0]), SegmentSpec.class);
      StdinStartGate gate =
          StdinStartGate.watch(System.in, System.out, Duration.ofNanos(spec.startWaitNanos()));
      GeneratorReport report =
          Generator.run(
              spec.toConfig(),
              line -> {
                System.err.println(line);
                System.err.flush();
              },
              gate);
      Json.write(Path.of(args[1]), report);
      code = 0;
    } catch (GeneratorException e) {
      System.err.println("error: " + e.getMessage());
      code = exitCode(e.kind());
    } catch (ReportFormatException | IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      code = 2;
    } catch (IOException | RuntimeException e) {
      System.err.println("error: " + e.getMessage());
      code = 3;
    }
    System.err.flush();
    System.exit(code);
  }
}
