package dev.ceiling.cli.command;

import dev.ceiling.verdict.BaselineCompare.Margin;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --margin}: "5%" (of the baseline's worker rate) or "10/s" (events/s). */
final class MarginConverter implements ITypeConverter<Margin> {
  @Override
  public Margin convert(String value) {
    String t = value.strip();
    boolean relative = t.endsWith("%");
    if (!relative && !t.endsWith("/s")) {
      throw new TypeConversionException(
          "expected a percentage of the baseline (5%) or a rate in events/s (10/s), got '"
              + value
              + "'");
    }
    String number = t.substring(0, t.length() - (relative ? 1 : 2)).strip();
    double d;
    try {
      d = Double.parseDouble(number);
    } catch (NumberFormatException e) {
      throw new TypeConversionException("'" + value + "' does not start with a number");
    }
    if (!(d >= 0) || Double.isInfinite(d) || (relative && d >= 100)) {
      throw new TypeConversionException(
          "'"
              + value
              + "' must be "
              + (relative ? "at least 0% and below 100%" : "a finite rate >= 0/s"));
    }
    return new Margin(relative ? d / 100 : d, relative);
  }
}
