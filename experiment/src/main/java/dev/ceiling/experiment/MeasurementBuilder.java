package dev.ceiling.experiment;

import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.VerdictConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What every run that sweeps a relay is configured with, written once for {@link
 * Experiment.Builder} and {@link DelaySweep#builder()}: the relay, the cells' length and number,
 * how each cell is measured, how it is judged and where it goes. Values are checked when the run is
 * built, all at once; nulls are refused at once.
 *
 * @param <B> the concrete builder, returned by every setter
 */
abstract class MeasurementBuilder<B extends MeasurementBuilder<B>> {
  RelayProfile profile;
  Duration duration;
  int repeats = 3;
  Map<String, String> relayOverrides = Map.of();
  SweepOptions sweepOptions;
  VerdictConfig verdictConfig = VerdictConfig.defaults();
  Path outDir;

  MeasurementBuilder(Duration duration, SweepOptions sweepOptions) {
    this.duration = duration;
    this.sweepOptions = sweepOptions;
  }

  abstract B self();

  /** The relay to measure (required). */
  public B profile(RelayProfile p) {
    this.profile = Objects.requireNonNull(p, "profile");
    return self();
  }

  /** Each cell's measurement window, after the warm-up, > 0. */
  public B duration(Duration d) {
    this.duration = Objects.requireNonNull(d, "duration");
    return self();
  }

  /** Cells per point of the grid (a rate, or a delay), default 3. */
  public B repeats(int n) {
    this.repeats = n;
    return self();
  }

  /** Overrides of the profile's ports and parameters (e.g. {@code exchange_delay_ms}). */
  public B relayOverrides(Map<String, String> o) {
    this.relayOverrides = Map.copyOf(o);
    return self();
  }

  /** Per-cell measurement (warm-up, connections, grace, timeouts); the run sets the journal. */
  public B sweepOptions(SweepOptions o) {
    this.sweepOptions = Objects.requireNonNull(o, "sweepOptions");
    return self();
  }

  public B verdictConfig(VerdictConfig c) {
    this.verdictConfig = Objects.requireNonNull(c, "verdictConfig");
    return self();
  }

  /**
   * Gives {@code b} this builder's shared settings, with the cell measurement and the directory of
   * its own: how a run made of rounds ({@link Explain}) configures each one.
   */
  <T extends MeasurementBuilder<T>> T sharedTo(T b, SweepOptions cells, Path dir) {
    return b.profile(profile)
        .relayOverrides(relayOverrides)
        .duration(duration)
        .repeats(repeats)
        .verdictConfig(verdictConfig)
        .sweepOptions(cells)
        .outDir(dir);
  }

  /**
   * Where the reports, half-runs, journals and rig state go. An experiment without one makes a new
   * directory of its own ({@link Experiment#newRunDirectory}), and so does a split or defaults
   * round; a delay sweep requires one.
   */
  public B outDir(Path dir) {
    this.outDir = Objects.requireNonNull(dir, "outDir");
    return self();
  }
}
