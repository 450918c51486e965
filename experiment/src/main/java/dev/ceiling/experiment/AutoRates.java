package dev.ceiling.experiment;

import dev.ceiling.core.model.RigDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * The grid as multiples of the ceiling the relay predicted from its own calibration loop, which is
 * measured before and apart from the sweep. It only places the grid; nothing is judged against it.
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

  /**
   * The rates, events/s: each multiple times the ceiling, rounded, at least 1, distinct, ascending.
   *
   * @throws MissingCeilingException when relay_info has no finite positive ceiling
   */
  static List<Double> of(RigDescriptor rig, List<Double> multiples) throws MissingCeilingException {
    String v = rig.relayInfo().get(Experiment.PREDICTED_CEILING_KEY);
    double ceiling;
    try {
      ceiling = v == null ? Double.NaN : Double.parseDouble(v);
    } catch (NumberFormatException e) {
      ceiling = Double.NaN;
    }
    if (!(ceiling > 0) || Double.isInfinite(ceiling)) {
      throw new MissingCeilingException(
          "automatic rates need the relay's predicted worker ceiling in relay_info."
              + Experiment.PREDICTED_CEILING_KEY
              + ", got "
              + v
              + "; pass --rates");
    }
    List<Double> out = new ArrayList<>();
    for (double m : multiples) {
      double r = Math.max(1, Math.round(ceiling * m));
      if (!out.contains(r)) {
        out.add(r);
      }
    }
    return out.stream().sorted().toList();
  }
}
