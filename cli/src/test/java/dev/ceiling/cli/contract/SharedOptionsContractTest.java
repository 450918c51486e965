package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options the measuring commands share (one mixin each) behave the same in every command that
 * mixes them in: the same synopsis, and for a bad value the same problem on the one usage line.
 * Nothing starts: every case is refused before a relay or a socket.
 */
class SharedOptionsContractTest {
  @TempDir Path dir;

  /** Each measuring command with what it needs so that the option under test is its problem. */
  private Map<String, List<String>> commands;

  @BeforeEach
  void commands() throws Exception {
    Path rig = Files.writeString(dir.resolve("rig.json"), "{}");
    commands =
        Map.of(
            "experiment", List.of("experiment"),
            "sweep",
                List.of(
                    "sweep",
                    "--rig",
                    rig.toString(),
                    "--json",
                    dir.resolve("h.json").toString(),
                    "--rates",
                    "100"),
            "delay-sweep", List.of("delay-sweep"));
  }

  @Test
  void aSharedOptionHasOneSynopsisWhereverItIsMixedIn() {
    for (String option :
        List.of(
            "--profile",
            "--param",
            "--duration",
            "--warmup",
            "--repeats",
            "--seed",
            "--out",
            "--resume",
            "--quiet",
            "--verbose")) {
      List<String> shapes = new ArrayList<>();
      for (String command : commands.keySet()) {
        OptionSpec o =
            Main.commandLine().getSubcommands().get(command).getCommandSpec().findOption(option);
        if (o != null && !isOwn(command, option)) {
          shapes.add(o.paramLabel() + " " + o.type().getSimpleName() + " " + o.arity());
        }
      }
      assertThat(shapes).as(option).isNotEmpty();
      assertThat(shapes.stream().distinct()).as(option + " " + shapes).hasSize(1);
    }
  }

  /** sweep's --profile and --resume are its own: a descriptor's profile, a journal file. */
  private static boolean isOwn(String command, String option) {
    return "sweep".equals(command) && List.of("--profile", "--resume").contains(option);
  }

  @Test
  void aBadValueIsTheSameProblemInEveryCommand() {
    sameProblem("--duration", List.of("experiment", "sweep", "delay-sweep"), "--duration", "0");
    sameProblem("--duration", List.of("experiment", "sweep", "delay-sweep"), "--duration", "1e12");
    sameProblem("--duration", List.of("experiment", "sweep", "delay-sweep"), "--duration", "NaN");
    sameProblem("--warmup", List.of("experiment", "sweep"), "--warmup", "-1");
    sameProblem("--repeats", List.of("experiment", "sweep", "delay-sweep"), "--repeats", "x");
    sameProblem("--repeats", List.of("experiment", "sweep"), "--repeats", "0");
    sameProblem("--seed", List.of("experiment", "sweep", "delay-sweep"), "--seed", "x");
    sameProblem("--profile", List.of("experiment", "delay-sweep"), "--profile", "nosuch");
    sameProblem("--param", List.of("experiment", "delay-sweep"), "--param", "no_equals_sign");
    sameProblem("--resume", List.of("experiment", "delay-sweep"), "--resume", "/nonexistent/run");
    sameProblem("--quiet and --verbose", List.of("experiment", "sweep"), "--quiet", "--verbose");
  }

  @Test
  void partnerAProblemWithAnotherRuleIsToldApart() {
    // The delay sweep fits a variance per delay, so its --repeats starts at 2: the comparison
    // above must see that difference, or it could not fail.
    assertThat(problem("--repeats", "experiment", "--repeats", "0"))
        .isNotEqualTo(problem("--repeats", "delay-sweep", "--repeats", "0"));
    assertThat(problem("--duration", "experiment", "--duration", "0"))
        .isNotEqualTo(problem("--duration", "experiment", "--duration", "-1"));
  }

  @Test
  void theDelaySweepAnswersToItsFirstNameToo() {
    Cli.Outcome byName = run("delay-sweep", "--help");
    Cli.Outcome byAlias = run("sensitivity", "--help");
    Cli.assertHelp(byName, "ceiling delay-sweep");
    assertThat(byAlias.out()).isEqualTo(byName.out());
    assertThat(byName.out().replaceAll("\\s+", " "))
        .contains("'ceiling sensitivity' is this command under its first name");
    assertUsageError(run("sensitivity", "--duration", "0"), "--duration");
  }

  /** The one problem naming {@code option} is the same text in each of {@code inCommands}. */
  private void sameProblem(String option, List<String> inCommands, String... args) {
    List<String> problems = new ArrayList<>();
    for (String command : inCommands) {
      problems.add(problem(option, command, args));
    }
    assertThat(problems.stream().distinct())
        .as("%s in %s: %s", Arrays.toString(args), inCommands, problems)
        .hasSize(1);
  }

  /**
   * The problem on {@code command}'s usage line that starts with {@code option}: the line's
   * problems are joined by "; " and end with "(see 'ceiling COMMAND --help')", which names the
   * command and is left out.
   */
  private String problem(String option, String command, String... args) {
    List<String> argv = new ArrayList<>(commands.get(command));
    argv.addAll(List.of(args));
    Cli.Outcome o = run(argv.toArray(String[]::new));
    assertUsageError(o, option);
    String line = o.errLines().get(0).replaceFirst("^error: ", "");
    line = line.substring(0, line.lastIndexOf(" (see '"));
    return Arrays.stream(line.split("; "))
        .filter(p -> p.contains(option))
        .findFirst()
        .orElseThrow(() -> new AssertionError(command + " names no " + option + ": " + o));
  }
}
