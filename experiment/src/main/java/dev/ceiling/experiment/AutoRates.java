package dev.ceiling.experiment;

import dev.ceiling.core.model.ReadyLine;
import dev.ceiling.core.model.RigDescriptor;
import java.util.List;

/**
 * The grid as multiples of the ceiling the relay predicted from its own calibration loop, which is
 * measured before and apart from the sweep. It only places the grid; nothing is judged against it.
 *
 * <p>A relay may predict a range rather than one figure: the reference relay times its exchanges
 * with the delay in place (cold, {@link Predictions#WORKER_CEILING_KEY}) and back to back (hot,
 * {@link Predictions#WORKER_CEILING_HOT_KEY}), and the measured ceiling lands anywhere between.
 * Multiples below 1 are placed on the range's low end and multiples of 1 or more on its high end,
 * so that "below" and "above" hold wherever in the range the ceiling lands. (Placed on the cold
 * figure alone, 1.3x once fell below a worker measured at 1.39x the cold prediction, which the
 * calibration had put on a busy machine's slow wake-ups.)
 */
final class AutoRates {
  private AutoRates() {}

  /** Auto rates need a calibrated ceiling from the relay; this says it had none. */
  static final class MissingCeilingException extends Exception {
    private static final long serialVersionUID = 1L;

    MissingCeilingException(String message) {
      super(message);
    }
  }

  /** The predicted range, events/s: low <= high; one figure when the relay predicts one. */
  record Range(double lowPerS, double highPerS) {
    /** The rate for one multiple: below 1 on the low end, otherwise on the high end. */
    double rateFor(double multiple) {
      return Math.max(1, Math.round((multiple < 1 ? lowPerS : highPerS) * multiple));
    }

    /** The rate of each multiple, events/s: distinct, ascending. */
    List<Double> rates(List<Double> multiples) {
      return multiples.stream().map(this::rateFor).distinct().sorted().toList();
    }

    /** For the progress line: "257.4/s" or "257.4-297.3/s". */
    String text() {
      return lowPerS == highPerS ? lowPerS + "/s" : lowPerS + "-" + highPerS + "/s";
    }
  }

  /**
   * The relay's predicted range: its ceiling and, when it reports a finite positive one, its hot
   * ceiling (an unreadable hot figure is ignored: the grid then rests on the ceiling alone).
   *
   * @throws MissingCeilingException when relay_info has no finite positive ceiling
   */
  static Range range(RigDescriptor rig) throws MissingCeilingException {
    // relay_info holds the READY line's fields as the rig read them; a descriptor edited into
    // something no READY line could say has no ceiling to read.
    ReadyLine ready;
    try {
      ready = new ReadyLine(rig.relayInfo());
    } catch (IllegalArgumentException e) {
      throw new MissingCeilingException(
          "automatic rates need relay_info as a READY line's fields: "
              + e.getMessage()
              + "; pass --rates");
    }
    String v = rig.relayInfo().get(Predictions.WORKER_CEILING_KEY);
    double ceiling = positive(ready, Predictions.WORKER_CEILING_KEY);
    if (Double.isNaN(ceiling)) {
      throw new MissingCeilingException(
          "automatic rates need the relay's predicted worker ceiling in relay_info."
              + Predictions.WORKER_CEILING_KEY
              + ", got "
              + v
              + "; pass --rates");
    }
    double hot = positive(ready, Predictions.WORKER_CEILING_HOT_KEY);
    if (Double.isNaN(hot)) {
      return new Range(ceiling, ceiling);
    }
    return new Range(Math.min(ceiling, hot), Math.max(ceiling, hot));
  }

  /**
   * The rates, events/s: each multiple on its end of the predicted range, rounded, at least 1,
   * distinct, ascending.
   *
   * @throws MissingCeilingException when relay_info has no finite positive ceiling
   */
  static List<Double> of(RigDescriptor rig, List<Double> multiples) throws MissingCeilingException {
    return range(rig).rates(multiples);
  }

  /** The field when it is a finite number above 0, else NaN. */
  private static double positive(ReadyLine ready, String key) {
    return ready.number(key).stream().filter(d -> d > 0).findFirst().orElse(Double.NaN);
  }
}
