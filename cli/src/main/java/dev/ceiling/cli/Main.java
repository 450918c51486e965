package dev.ceiling.cli;

import dev.ceiling.cli.command.CombineCommand;
import dev.ceiling.cli.command.CompareCommand;
import dev.ceiling.cli.command.DelaySweepCommand;
import dev.ceiling.cli.command.ExperimentCommand;
import dev.ceiling.cli.command.ExplainCommand;
import dev.ceiling.cli.command.GenerateCommand;
import dev.ceiling.cli.command.MergeCommand;
import dev.ceiling.cli.command.ModelCommand;
import dev.ceiling.cli.command.ReportCommand;
import dev.ceiling.cli.command.RigCommand;
import dev.ceiling.cli.command.SweepCommand;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;

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
      DelaySweepCommand.class,
      ExplainCommand.class,
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
    CommandLine cl = new CommandLine(new Main());
    Map<String, CommandLine.IHelpSectionRenderer> sections = cl.getHelpSectionMap();
    sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, Main::commandList);
    cl.setHelpSectionMap(sections);
    return CommandLines.configure(cl);
  }

  /**
   * The command list, each command once under its own name, as picocli lays it out: with an alias
   * beside its name ("delay-sweep, sensitivity") the name column would push every header past 80
   * columns. The command's own help names its alias.
   */
  static String commandList(Help help) {
    // picocli keys this map by the names with their aliases ("delay-sweep, sensitivity").
    List<Help> commands = List.copyOf(help.subcommands().values());
    if (commands.isEmpty()) {
      return "";
    }
    int names =
        commands.stream().mapToInt(c -> c.commandSpec().name().length()).max().orElse(0) + 2;
    TextTable table =
        TextTable.forColumns(
            help.colorScheme(),
            new Column(names, 2, Column.Overflow.SPAN),
            new Column(help.commandSpec().usageMessage().width() - names, 2, Column.Overflow.WRAP));
    for (Help command : commands) {
      String[] header = command.commandSpec().usageMessage().header();
      table.addRowValues(command.commandSpec().name(), header.length == 0 ? "" : header[0]);
    }
    return table.toString();
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
