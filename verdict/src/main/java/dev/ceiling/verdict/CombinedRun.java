package dev.ceiling.verdict;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import java.util.Objects;

/**
 * One treatment half and one control half of the same experiment. Build it with {@link
 * Combine#combine}, which lists every mismatch; this constructor only guards the invariants.
 *
 * @param identity the shared identity
 * @param treatment the treatment half; its identity equals {@code identity}
 * @param control the control half; its identity equals {@code identity}
 */
public record CombinedRun(ExperimentIdentity identity, HalfRun treatment, HalfRun control) {
  public CombinedRun {
    Objects.requireNonNull(identity, "identity must not be null");
    Objects.requireNonNull(treatment, "treatment must not be null");
    Objects.requireNonNull(control, "control must not be null");
    if (!treatment.arm().equals(identity.treatmentArm())) {
      throw new IllegalArgumentException(
          "treatment.arm must be '" + identity.treatmentArm() + "', got '" + treatment.arm() + "'");
    }
    if (!control.arm().equals(identity.controlArm())) {
      throw new IllegalArgumentException(
          "control.arm must be '" + identity.controlArm() + "', got '" + control.arm() + "'");
    }
    if (!treatment.identity().equals(identity) || !control.identity().equals(identity)) {
      throw new IllegalArgumentException(
          "both halves' identities must equal the run's identity; use Combine.combine to see"
              + " which fields differ");
    }
  }
}
