package dev.ceiling.experiment;

import java.util.Objects;

/**
 * A problem with one option of a builder, its name kept apart from its text, so a caller that names
 * the option its own way (the CLI's {@code --contrast}) prefixes its own name instead of rewriting
 * the builder's message.
 *
 * @param option the builder's name of the option (e.g. "contrast")
 * @param text what is wrong with it, without the option's name
 */
public record OptionProblem(String option, String text) {
  public OptionProblem {
    Objects.requireNonNull(option, "option must not be null");
    Objects.requireNonNull(text, "text must not be null");
  }

  /** The problem named by the builder's name of the option: "contrast k is not ...". */
  public String message() {
    return option + " " + text;
  }
}
