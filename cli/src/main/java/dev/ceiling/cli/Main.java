package dev.ceiling.cli;

import dev.ceiling.cli.command.CombineCommand;
import dev.ceiling.cli.command.ExperimentCommand;
import dev.ceiling.cli.command.GenerateCommand;
import dev.ceiling.cli.command.MergeCommand;
import dev.ceiling.cli.command.ModelCommand;
import dev.ceiling.cli.command.ReportCommand;
import dev.ceiling.cli.command.RigCommand;
import dev.ceiling.cli.command.SweepCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ceiling} command. Subcommands parse, build a config and delegate to the modules. */
@Command(
    name = "ceiling",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Measures where a Nostr relay's accepted-event throughput stops tracking the offered rate,",
      "and whether a named code path is what stops it.",
      "",
      "Exit codes: 0 established, 1 not established (or partial), 2 bad usage or input,",
      "3 infrastructure failure."
    },
    subcommands = {
      ExperimentCommand.class,
      RigCommand.class,
      GenerateCommand.class,
      MergeCommand.class,
      SweepCommand.class,
      CombineCommand.class,
      ModelCommand.class,
      ReportCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main {
  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the CLI and returns its exit code (tests and embedders call this). */
  public static int execute(String... args) {
    CommandLine cl = new CommandLine(new Main());
    // Bad usage is exit code 2, whatever picocli's default.
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          CommandLine c = ex.getCommandLine();
          c.getErr().println("error: " + ex.getMessage());
          c.getErr().println("(see '" + c.getCommandSpec().qualifiedName() + " --help')");
          return ExitCode.USAGE;
        });
    cl.setExecutionExceptionHandler(
        (ex, c, parsed) -> {
          c.getErr().println("error: " + ex);
          return ExitCode.INFRASTRUCTURE;
        });
    return cl.execute(args);
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
