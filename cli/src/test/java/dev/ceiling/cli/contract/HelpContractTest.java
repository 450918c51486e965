package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertHelp;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.Main;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --help} for every command and subcommand: exit 0, usage, every option described. */
class HelpContractTest {

  /** Every command path the CLI has, found from the command tree (new commands included). */
  static List<List<String>> commandPaths() {
    List<List<String>> paths = new ArrayList<>();
    collect(Main.commandLine(), new ArrayList<>(), paths);
    return paths;
  }

  private static void collect(CommandLine cl, List<String> prefix, List<List<String>> out) {
    for (var e : cl.getSubcommands().entrySet()) {
      if (e.getValue().getCommandSpec().helpCommand() && "help".equals(e.getKey())) {
        continue;
      }
      List<String> path = new ArrayList<>(prefix);
      path.add(e.getKey());
      out.add(path);
      collect(e.getValue(), path, out);
    }
  }

  @Test
  void theTreeHasTheDocumentedCommands() {
    assertThat(commandPaths())
        .contains(
            List.of("experiment"),
            List.of("rig"),
            List.of("rig", "up"),
            List.of("rig", "down"),
            List.of("rig", "status"),
            List.of("generate"),
            List.of("sweep"),
            List.of("combine"),
            List.of("merge"),
            List.of("model"),
            List.of("report"),
            List.of("delay-sweep"),
            List.of("sensitivity"));
  }

  @Test
  void everyCommandsHelpExitsZeroAndDescribesEveryOption() {
    for (List<String> path : commandPaths()) {
      List<String> args = new ArrayList<>(path);
      args.add("--help");
      Cli.Outcome o = run(args.toArray(String[]::new));
      CommandLine cl = Main.commandLine();
      for (String name : path) {
        cl = cl.getSubcommands().get(name);
      }
      // An alias shows the command's own name (sensitivity is delay-sweep).
      assertHelp(o, cl.getCommandSpec().qualifiedName());
      for (CommandLine.Model.OptionSpec opt : cl.getCommandSpec().options()) {
        assertThat(opt.description())
            .as("%s %s has a description", path, opt.longestName())
            .isNotEmpty();
        assertThat(o.out()).as("%s lists %s", path, opt.longestName()).contains(opt.longestName());
      }
    }
  }

  /**
   * Every option's description is whole paragraphs: picocli prints each element of a description
   * array on a line of its own and wraps it again at the column, so an array of line-length
   * fragments printed as half-empty lines between lines that fill the column.
   */
  @Test
  void everyOptionsDescriptionIsWholeParagraphs() {
    assertThat(fragmentedDescriptions(Main.commandLine())).isEmpty();
  }

  /** Partner: an option written as line-length fragments is named. */
  @Test
  void aDescriptionWrittenAsLineFragmentsIsNamed() {
    assertThat(fragmentedDescriptions(new CommandLine(new Fragmented())))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("--seconds", "\"How long, in seconds, the run offers load; it is\"");
  }

  @CommandLine.Command(name = "fragmented")
  static final class Fragmented {
    @CommandLine.Option(
        names = "--seconds",
        description = {"How long, in seconds, the run offers load; it is", "part of its identity."})
    int seconds;
  }

  /**
   * The options, in every command of {@code root}'s tree, with an element that ends mid-sentence.
   */
  static List<String> fragmentedDescriptions(CommandLine root) {
    List<String> out = new ArrayList<>();
    List<CommandLine> all = new ArrayList<>(List.of(root));
    for (int i = 0; i < all.size(); i++) {
      CommandLine cl = all.get(i);
      // An alias (sensitivity) is the same command: once.
      cl.getSubcommands().values().stream().filter(c -> !all.contains(c)).forEach(all::add);
      for (CommandLine.Model.OptionSpec opt : cl.getCommandSpec().options()) {
        for (String element : opt.description()) {
          String e = element.strip();
          if (!e.isEmpty() && !e.endsWith(".") && !e.endsWith(":")) {
            out.add(
                cl.getCommandSpec().qualifiedName() + " " + opt.longestName() + ": \"" + e + "\"");
          }
        }
      }
    }
    return out;
  }

  @Test
  void topLevelHelpListsEveryCommandWithAWholeSentence() {
    Cli.Outcome o = run("--help");
    assertHelp(o, "ceiling");
    // The command list is each command's header: one sentence, never cut mid-sentence.
    for (var e : Main.commandLine().getSubcommands().entrySet()) {
      // The list names each command once, by its own name; its help names its alias.
      if ("help".equals(e.getKey()) || !e.getKey().equals(e.getValue().getCommandName())) {
        continue;
      }
      String[] header = e.getValue().getCommandSpec().usageMessage().header();
      assertThat(header).as("%s has a one-line header", e.getKey()).hasSize(1);
      // Short enough to fit beside the command's name in an 80-column list.
      assertThat(header[0]).as(e.getKey()).endsWith(".").hasSizeLessThanOrEqualTo(60);
      String line =
          o.out()
              .lines()
              .filter(l -> l.strip().startsWith(e.getKey() + " "))
              .findFirst()
              .orElseThrow();
      assertThat(line.strip()).as(e.getKey()).endsWith(header[0]);
    }
    assertThat(o.out()).doesNotContain("combine,\n", "The verdict is\n", "sensitivity");
  }

  @Test
  void generateHelpGivesUnitsAndDefaults() {
    Cli.Outcome o = run("generate", "--help");
    assertHelp(o, "ceiling generate");
    assertThat(o.out())
        .contains(
            "--duration=DURATION",
            "--target=SPEC",
            "rate=EVENTS_PER_S",
            "(default: 10ms",
            "(default: 10s)",
            "(default: 10000)",
            "(default: 2)");
    // Whatever the terminal width wraps, the exit code of a signal and the loopback names are said.
    assertThat(String.join(" ", o.out().split("\\s+")))
        .contains("130 stopped by SIGINT", "localhost or a name under .localhost");
  }

  @Test
  void versionExitsZero() {
    Cli.Outcome o = run("--version");
    assertThat(o.code()).isZero();
    assertThat(o.out()).startsWith("ceiling ");
  }
}
