package dev.ceiling.cli.command;

import dev.ceiling.generator.GeneratorMain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code ceiling generate}: the generator alone, pointed at any relay. Its arguments are the
 * generator's own (see {@code ceiling generate --help}); the generator validates them and reports
 * every problem before anything connects.
 */
@Command(
    name = "generate",
    description = "Offer paced load to one or more targets and print one JSON document.",
    // The generator parses its own arguments, including --help.
    helpCommand = true)
public final class GenerateCommand implements Callable<Integer> {
  @Unmatched List<String> args = new ArrayList<>();

  @Override
  public Integer call() {
    return GeneratorMain.run(args.toArray(String[]::new), System.out, System.err);
  }
}
