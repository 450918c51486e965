package dev.ceiling.experiment;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.CellCounts;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.MeasurementSettings;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.RelayProfile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.BooleanSupplier;

/**
 * Measures a {@link CeilingRamp} on a relay that is up: each step a one-cell sweep ({@link
 * OneCellSweep}: drain, warm-up, window) at the offer the rule gives it, until the rule stops. Used
 * where the relay predicts no ceiling ({@link AutoRates#range} refuses), so that every round places
 * its offers from a measured ceiling instead of refusing to start.
 */
final class RampMeasure {
  private RampMeasure() {}

  /**
   * The rule a round uses unless told otherwise: from 50/s, doubling, up to 12,800/s (nine steps at
   * most), saturated when fewer than 90% of the offer is answered OK true, collapsed when a step
   * answers fewer than half the rate a step below it sustained ({@link
   * CeilingRamp#COLLAPSE_FRACTION}). Doubling keeps the ramp short and puts the saturating step at
   * most twice the ceiling, where the generator still keeps its schedule; 10% is well above a
   * window's counting noise at these offers (a 2 s window at 50/s offers 100 events) and well below
   * what a ceiling a step crosses takes away.
   */
  static final CeilingRamp.Rule DEFAULT_RULE = new CeilingRamp.Rule(50, 2, 0.1, 12_800, 2);

  /** Measures one step: a one-cell sweep of {@code identity} (one rate, one repeat). */
  @FunctionalInterface
  interface StepCells {
    /**
     * The step's cell.
     *
     * @param index the step's place in the ramp, from 0
     * @throws OneCellSweep.CellFailed when the step could not be measured
     */
    Cell measure(ExperimentIdentity identity, int index) throws OneCellSweep.CellFailed;
  }

  /**
   * Runs the ramp on the relay that is up, each step measured by {@code cells}.
   *
   * @param stopped asked before each step: true ends the ramp with the steps measured so far
   * @throws OneCellSweep.CellFailed when a step could not be measured
   */
  static CeilingRamp run(
      CeilingRamp.Rule rule,
      RelayProfile profile,
      RigDescriptor rig,
      MeasurementSettings measurement,
      StepCells cells,
      SweepProgress progress,
      BooleanSupplier stopped)
      throws OneCellSweep.CellFailed {
    progress.warning(
        "the relay predicts no ceiling: finding it first by a ramp (" + rule.text() + ")");
    ExperimentIdentity stepIdentity =
        Identities.of(
            profile, rig, List.of(rule.startPerS()), rule.windowS(), 1, null, measurement);
    CeilingRamp ramp = steps(rule, stepIdentity, cells, stopped, "", progress).ramp();
    progress.warning(ramp.text());
    return ramp;
  }

  /**
   * A ramp as measured: its steps, the cell each was read from (in order), and whether a stop
   * request ended it before its rule did.
   */
  record Measured(CeilingRamp ramp, List<Cell> cells, boolean stopped) {}

  /**
   * The one ramp loop, a round's ramp's and a point ramp's ({@link DelayCells}): from the rule's
   * first offer, each step a cell of {@code identity} at the step's offer measured by {@code cells}
   * and read by the rule, until the rule stops or {@code stopped} answers true before a step. Asked
   * before every step, so that Ctrl-C during a point ramp of twelve steps waits for one step, not
   * for the ramp.
   *
   * @param about what each step's line begins with ("" for a round's ramp, "cell 3 at 2.0 ms, " for
   *     a point ramp's)
   * @throws OneCellSweep.CellFailed when a step could not be measured
   */
  static Measured steps(
      CeilingRamp.Rule rule,
      ExperimentIdentity identity,
      StepCells cells,
      BooleanSupplier stopped,
      String about,
      SweepProgress progress)
      throws OneCellSweep.CellFailed {
    List<CeilingRamp.Step> steps = new ArrayList<>();
    List<Cell> measured = new ArrayList<>();
    for (OptionalDouble next = rule.next(steps); next.isPresent(); next = rule.next(steps)) {
      if (stopped.getAsBoolean()) {
        return new Measured(CeilingRamp.of(rule, steps), List.copyOf(measured), true);
      }
      double offer = next.getAsDouble();
      Cell cell = cells.measure(identity.withRates(List.of(offer)), steps.size());
      measured.add(cell);
      steps.add(step(cell));
      progress.warning(
          String.format(
              Locale.ROOT,
              "%sramp step %d at %.0f/s: %s",
              about,
              steps.size(),
              offer,
              rule.read(steps, steps.size() - 1).why()));
    }
    return new Measured(CeilingRamp.of(rule, steps), List.copyOf(measured), false);
  }

  /**
   * Runs the ramp with each step a {@link OneCellSweep} (drain, warm-up, window), journalled in
   * {@code journals}.
   *
   * @throws MetricsException when the relay's backlog cannot be read before the first step
   * @throws OneCellSweep.CellFailed when a step could not be measured
   */
  static CeilingRamp run(
      CeilingRamp.Rule rule,
      MetricsScraper scraper,
      RelayProfile profile,
      RigDescriptor rig,
      SweepOptions options,
      Path journals,
      SweepProgress progress,
      BooleanSupplier stopped)
      throws MetricsException, OneCellSweep.CellFailed {
    try {
      java.nio.file.Files.createDirectories(journals);
    } catch (java.io.IOException e) {
      throw new OneCellSweep.CellFailed("cannot create " + journals + ": " + e, e);
    }
    OneCellSweep sweep =
        new OneCellSweep(scraper, new SweepRunner(scraper, progress), progress, rig, journals);
    return run(
        rule,
        profile,
        rig,
        options.measurement(),
        (identity, i) ->
            sweep.measure(
                identity,
                options,
                i,
                0,
                String.format(
                    Locale.ROOT, "of the ceiling ramp at %.0f/s", identity.ratesPerS().get(0))),
        progress,
        stopped);
  }

  /**
   * The file, in a round's output directory, of the ramp its offers rest on (A/B, lock, defaults).
   */
  static final String FILE = "ramp.json";

  /**
   * The ramp of a one-relay round whose relay predicts no ceiling ({@link #DEFAULT_RULE}), its
   * steps journalled in {@code outDir/ramp/}, the ramp written to {@code outDir/}{@link #FILE}.
   *
   * @throws MetricsException when the relay's backlog cannot be read before the first step
   * @throws OneCellSweep.CellFailed when a step could not be measured or the file not written
   */
  static CeilingRamp forRound(
      MetricsScraper scraper,
      RelayProfile profile,
      RigDescriptor rig,
      SweepOptions options,
      Path outDir,
      SweepProgress progress,
      BooleanSupplier stopped)
      throws MetricsException, OneCellSweep.CellFailed {
    CeilingRamp ramp =
        run(
            DEFAULT_RULE,
            scraper,
            profile,
            rig,
            options,
            outDir.resolve("ramp"),
            progress,
            stopped);
    try {
      dev.ceiling.core.json.Json.write(outDir.resolve(FILE), ramp);
    } catch (java.io.IOException e) {
      throw new OneCellSweep.CellFailed("cannot write " + outDir.resolve(FILE) + ": " + e, e);
    }
    return ramp;
  }

  /** The one line for a ramp that found no ceiling: what it tried, and the override. */
  static String noCeiling(CeilingRamp ramp, String override) {
    return "the relay predicts no ceiling and "
        + ramp.text()
        + "; no offer can be placed from it: pass "
        + override;
  }

  /**
   * One step from its cell: the credited OK-true rate, the halves, the slots sent, and why it is
   * unreadable. A generator-bound cell is read all the same when it sent its window's slots ({@link
   * CeilingRamp.Rule#read}): a lagging generator on a loaded machine is the rule, and its lateness
   * does not change what was offered.
   */
  static CeilingRamp.Step step(Cell cell) {
    CellCounts k = cell.counts();
    String excluded = null;
    if (!k.hasWindowCounts()) {
      excluded = "the window's counts were not recorded";
    } else if (cell.environment().drainTimeout() != null) {
      excluded = "the backlog before it did not drain";
    }
    return new CeilingRamp.Step(
        cell.key().offeredPerS(),
        cell.environment().durationRequestedS(),
        cell.acceptedPerS(),
        k.hasWindowCounts() ? k.acceptedInWindowFirstHalf() : 0,
        k.hasWindowCounts() ? k.acceptedInWindowSecondHalf() : 0,
        k.attempted(),
        excluded);
  }
}
