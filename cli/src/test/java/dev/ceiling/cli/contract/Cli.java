package dev.ceiling.cli.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** Runs {@code ceiling ARGS} in this JVM on captured streams, as a user's shell would see it. */
final class Cli {
  private Cli() {}

  record Outcome(int code, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }

    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
  }

  static Outcome run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Outcome(code, out.toString(), err.toString());
  }

  /** Exit 2, nothing on stdout, exactly one line on stderr that names {@code argument}. */
  static void assertUsageError(Outcome o, String argument) {
    assertThat(o.code()).as(o.toString()).isEqualTo(2);
    assertThat(o.errLines()).as(o.toString()).hasSize(1);
    assertThat(o.errLines().get(0)).startsWith("error: ").contains(argument);
    assertThat(o.out()).as(o.toString()).isEmpty();
  }

  /** Exit 0, usage on stdout naming the command, nothing on stderr. */
  static void assertHelp(Outcome o, String command) {
    assertThat(o.code()).as(o.toString()).isZero();
    // The first line is the command's one-sentence header, then its usage.
    assertThat(o.out().lines().findFirst().orElse("")).as(o.toString()).endsWith(".");
    assertThat(o.out().lines().skip(1).findFirst().orElse(""))
        .as(o.toString())
        .startsWith("Usage: " + command + " ");
    assertThat(o.err()).isEmpty();
  }
}
