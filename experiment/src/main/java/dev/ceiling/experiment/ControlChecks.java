package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ControlCheckReading;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.ControlCheck;
import java.time.Duration;

/**
 * The profile's control check around a control cell: run just before and just after it, both
 * readings kept in the cell, so that a control arm whose audit output changed is caught.
 */
final class ControlChecks {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private ControlChecks() {}

  /** One run of the profile's control check; an interrupt ends it and leaves the flag set. */
  static ControlCheck.Result run(RigDescriptor rig) {
    try {
      return ControlCheck.run(rig.controlCheck(), TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new ControlCheck.Result("interrupted", null);
    }
  }

  /** {@code cell} with the two readings taken around it. */
  static Cell withReadings(Cell cell, ControlCheck.Result before, ControlCheck.Result after) {
    return cell.toBuilder()
        .controlCheck(
            new ControlCheckReading(
                before.output(), before.exitCode(), after.output(), after.exitCode()))
        .build();
  }
}
