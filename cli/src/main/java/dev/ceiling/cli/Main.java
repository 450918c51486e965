package dev.ceiling.cli;

import dev.ceiling.cli.command.CombineCommand;
import dev.ceiling.cli.command.CompareCommand;
import dev.ceiling.cli.command.ExperimentCommand;
import dev.ceiling.cli.command.GenerateCommand;
import dev.ceiling.cli.command.MergeCommand;
import dev.ceiling.cli.command.ModelCommand;
import dev.ceiling.cli.command.ReportCommand;
import dev.ceiling.cli.command.RigCommand;
import dev.ceiling.cli.command.SensitivityCommand;
import dev.ceiling.cli.command.SweepCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code ceiling} command. Subcommands parse, build a config and delegate to the modules. Each
 * has a one-sentence {@code header}: it is what {@code ceiling --help} lists, whole.
 */
@Command(
    name = "ceiling",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    header = "Measures where a relay's accepted-event rate stops tracking the offered rate.",
    description = {
      "It also tells whether a named code path (an audit log, a limiter, a lock) is what stops"
          + " it.",
      "Exit codes: 0 established, 1 not established (or partial), 2 bad usage or input, 3"
          + " infrastructure failure.",
      ""
    },
    subcommands = {
      ExperimentCommand.class,
      RigCommand.class,
      GenerateCommand.class,
      MergeCommand.class,
      SweepCommand.class,
      CombineCommand.class,
      CompareCommand.class,
      ModelCommand.class,
      SensitivityCommand.class,
      ReportCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main {
  public static void main(String[] args) {
    CommandLine cl = commandLine();
    int code = CommandLines.executeCatchingErrors(cl, args);
    // picocli's writers flush on println only; a summary written with print() would be lost at
    // System.exit. One flush here covers every command.
    cl.getOut().flush();
    cl.getErr().flush();
    System.exit(code);
  }

  /** Runs the CLI on this process's streams and returns its exit code. */
  public static int execute(String... args) {
    return commandLine().execute(args);
  }

  /**
   * Runs the CLI with the given streams and returns its exit code; tests call this in-process.
   * Commands write only to these streams.
   */
  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cl = commandLine();
    cl.setOut(out);
    cl.setErr(err);
    return CommandLines.executeCatchingErrors(cl, args);
  }

  /** The configured command line: usage errors exit 2 on one line, numbers finite. */
  public static CommandLine commandLine() {
    return CommandLines.configure(new CommandLine(new Main()));
  }

  /** The version from the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"ceiling " + (v == null ? "(development build)" : v)};
    }
  }
}
