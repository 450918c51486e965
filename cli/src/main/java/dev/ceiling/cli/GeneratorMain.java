package dev.ceiling.cli;

import dev.ceiling.cli.command.GenerateCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * Stand-alone generator, the same picocli command as {@code ceiling generate} (see {@code --help}):
 * {@code GeneratorMain --duration 10s --target url=ws://127.0.0.1:7777,rate=500 [--target ...]}.
 * For a process that runs one generator segment and nothing else (docs/SCALE_OUT.md's Kubernetes
 * job); it needs the cli's class path, for picocli.
 */
public final class GeneratorMain {
  private GeneratorMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs with the given streams and returns the exit code; never calls System.exit. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    CommandLine cl = new CommandLine(new GenerateCommand());
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    return CommandLines.configure(cl).execute(args);
  }
}
