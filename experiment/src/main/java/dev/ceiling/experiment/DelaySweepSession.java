package dev.ceiling.experiment;

import dev.ceiling.core.model.Checks;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One session of a delay sweep: the run that fixed the plan, or one {@code --resume} of it, each on
 * a relay started for it. {@code sensitivity.json} lists them so a reader can tell which cells ran
 * on which relay, and when.
 *
 * @param number 1 for the run that fixed the plan, then 2, 3, ... for each resume
 * @param startedAt when the session's relay was up
 * @param finishedAt when the session ended, or null while it runs (or when it was killed)
 * @param rigId the rig id of the session's relay
 * @param cells the planned sequences of the cells measured in this session, in run order
 */
public record DelaySweepSession(
    int number, Instant startedAt, Instant finishedAt, String rigId, List<Integer> cells) {
  public DelaySweepSession {
    Checks checks = new Checks();
    checks.require(number >= 1, "number must be >= 1, got " + number);
    checks.require(startedAt != null, "started_at must not be null");
    checks.notBlank("rig_id", rigId);
    cells = List.copyOf(Objects.requireNonNull(cells, "cells must not be null"));
    checks.orThrow();
  }
}
