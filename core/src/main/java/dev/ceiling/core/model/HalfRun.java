package dev.ceiling.core.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One arm's sweep: its cells and the identity it must share with its other half. A half-run is a
 * partial experiment by construction; only a combined pair can pass the verdict.
 *
 * @param schemaVersion must be {@link SchemaVersion#CURRENT}
 * @param identity what the two halves must share
 * @param arm this half's arm; must be the identity's treatment or control arm
 * @param rig the descriptor of the relay this half measured
 * @param startedAt when the sweep started
 * @param finishedAt when it stopped, or null if it never finished
 * @param complete true when every planned cell was measured
 * @param incompleteReason why it stopped early, or null when complete
 * @param cells the measured cells in execution order
 */
@SchemaVersion1.Upgradable
public record HalfRun(
    int schemaVersion,
    ExperimentIdentity identity,
    String arm,
    RigDescriptor rig,
    Instant startedAt,
    Instant finishedAt,
    boolean complete,
    String incompleteReason,
    List<Cell> cells) {

  public HalfRun {
    Checks checks = new Checks();
    SchemaVersion.check(schemaVersion);
    Objects.requireNonNull(identity, "identity must not be null");
    checks.notBlank("arm", arm);
    if (arm != null && !arm.equals(identity.treatmentArm()) && !arm.equals(identity.controlArm())) {
      checks.add(
          "arm must be the treatment ('"
              + identity.treatmentArm()
              + "') or control ('"
              + identity.controlArm()
              + "') arm, got '"
              + arm
              + "'");
    }
    Objects.requireNonNull(rig, "rig must not be null");
    Objects.requireNonNull(startedAt, "started_at must not be null");
    if (complete == (incompleteReason != null)) {
      checks.add(
          "incomplete_reason must be set exactly when complete is false, got complete="
              + complete
              + " incomplete_reason="
              + incompleteReason);
    }
    cells = List.copyOf(Objects.requireNonNull(cells, "cells must not be null"));
    for (int i = 0; i < cells.size(); i++) {
      if (arm != null && !cells.get(i).arm().equals(arm)) {
        checks.add("cells[" + i + "].arm must be '" + arm + "', got '" + cells.get(i).arm() + "'");
      }
    }
    checks.orThrow();
  }

  /** True when this is the treatment half. */
  // Derived, not a field: without @JsonIgnore Jackson writes it as "treatment", and the strict
  // reader then rejects the file it just wrote as having an unknown field.
  @JsonIgnore
  public boolean isTreatment() {
    return arm.equals(identity.treatmentArm());
  }
}
