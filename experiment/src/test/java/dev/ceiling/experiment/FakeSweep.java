package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.core.testing.HalfRuns;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * Sweeps without a relay: each planned cell is a clean cell at a fixed accepted/offered ratio, and
 * an interrupt stops it after the running cell, as {@link SweepRunner} does. Records what every
 * sweep was asked to measure.
 */
final class FakeSweep implements ArmSweep.Factory {
  /** What one sweep was asked. */
  record Call(String arm, ExperimentIdentity identity, SweepOptions options) {}

  final List<Call> calls = new ArrayList<>();

  /** Called after each cell with the number of cells done (a test's Ctrl-C goes here). */
  IntConsumer afterCell = n -> {};

  /** The infrastructure failure to stop with after the first cell, or null. */
  Exception failure;

  /** An unchecked exception the sweep throws instead of returning (a bug), or null. */
  RuntimeException crash;

  @Override
  public ArmSweep create(SweepProgress progress) {
    AtomicBoolean interrupted = new AtomicBoolean();
    return new ArmSweep() {
      @Override
      public SweepRunner.Outcome run(
          RigDescriptor rig, ExperimentIdentity identity, SweepOptions options) {
        calls.add(new Call(rig.arm(), identity, options));
        if (crash != null) {
          throw crash;
        }
        List<PlannedCell> plan = CellPlan.plan(identity, false);
        List<Cell> cells = new ArrayList<>();
        for (PlannedCell p : plan) {
          if (interrupted.get() || (failure != null && !cells.isEmpty())) {
            break;
          }
          cells.add(
              HalfRuns.cell(
                      rig.arm(),
                      p.offeredPerS(),
                      p.repeat(),
                      p.sequence(),
                      identity.durationS(),
                      rig.arm().equals(identity.treatmentArm()) ? 0.5 : 1.0)
                  .build());
          afterCell.accept(cells.size());
        }
        boolean complete = cells.size() == plan.size();
        String reason =
            complete
                ? null
                : failure != null
                    ? "stopped by an infrastructure failure: " + failure.getMessage()
                    : "interrupted after " + cells.size() + " of " + plan.size() + " cells";
        HalfRun half =
            new HalfRun(
                SchemaVersion.CURRENT,
                identity,
                rig.arm(),
                rig,
                HalfRuns.T0,
                HalfRuns.T0.plusSeconds(60),
                complete,
                reason,
                cells);
        return new SweepRunner.Outcome(half, complete ? null : failure);
      }

      @Override
      public void interrupt() {
        interrupted.set(true);
      }
    };
  }
}
