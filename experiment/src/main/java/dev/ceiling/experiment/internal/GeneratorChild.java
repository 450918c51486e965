package dev.ceiling.experiment.internal;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.generator.Generator;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.GeneratorReport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * The main class of one generator child process of a scaled-out cell ({@link
 * dev.ceiling.experiment.GeneratorProcesses}): {@code GeneratorChild SPEC.json REPORT.json} runs
 * the {@link SegmentSpec} and writes its report. Not the picocli {@code generate} command: the
 * experiment API is used without picocli on the class path (the junit extension, a user's build),
 * and a spec file needs no quoting of tags or Host headers.
 *
 * <p>Progress goes to stderr, one line each; the last line before a non-zero exit is the reason.
 * Exit codes: 0 report written, 2 bad configuration, 3 infrastructure failure (including "not ready
 * at the start instant"), 4 the parent went away (its end of our stdin closed), {@link
 * #STARTED_LATE} the start instant the parent chose had passed when this process got to it.
 */
public final class GeneratorChild {
  private GeneratorChild() {}

  /**
   * The exit code of a child that started after the start instant its parent chose: the machine did
   * not give it the lead it was planned (an infrastructure failure for the parent, never a
   * configuration error).
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
    watchParent(System.in);
    int code;
    try {
      SegmentSpec spec = Json.read(Path.of(args[0]), SegmentSpec.class);
      GeneratorReport report =
          Generator.run(
              spec.toConfig(),
              line -> {
                System.err.println(line);
                System.err.flush();
              });
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

  /**
   * Ends this process when the parent's end of stdin closes, so a parent killed without warning
   * does not leave generators offering load to a relay nobody measures.
   */
  private static void watchParent(InputStream in) {
    Thread t =
        new Thread(
            () -> {
              try {
                while (in.read() >= 0) {
                  // The parent never writes; anything it does is ignored.
                }
              } catch (IOException e) {
                // Same as end of stream: the parent is gone.
              }
              System.err.println("error: the parent process went away; stopping");
              System.err.flush();
              Runtime.getRuntime().halt(4);
            },
            "ceiling-parent-watch");
    t.setDaemon(true);
    t.start();
  }
}
