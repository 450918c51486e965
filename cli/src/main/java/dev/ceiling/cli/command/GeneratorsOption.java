package dev.ceiling.cli.command;

import dev.ceiling.experiment.SweepOptions;
import picocli.CommandLine.Option;

/** {@code --generators N}, shared by {@code sweep} and {@code experiment} (a picocli mixin). */
final class GeneratorsOption {
  @Option(
      names = "--generators",
      paramLabel = "N",
      defaultValue = "1",
      description =
          "Give each cell's load to N local generator processes (a JVM each) running segments"
              + " 0/N..N-1/N from one start instant, their reports merged exactly; 1 keeps the"
              + " generator in this process (default: ${DEFAULT-VALUE}). See docs/SCALE_OUT.md.")
  int generators;

  OptionChecks check(OptionChecks checks) {
    return checks.between("--generators", generators, 1, SweepOptions.MAX_GENERATORS, "");
  }
}
