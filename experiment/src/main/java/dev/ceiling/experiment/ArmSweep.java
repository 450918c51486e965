package dev.ceiling.experiment;

import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.proxy.DelayProxy;
import java.io.IOException;
import java.util.Map;

/**
 * One arm's sweep as the experiment drives it: {@link SweepRunner} in production. It is an
 * interface so the experiment's phases can be tested with a fake sweep, without a relay.
 */
interface ArmSweep {
  /** See {@link SweepRunner#run}. */
  SweepRunner.Outcome run(RigDescriptor rig, ExperimentIdentity identity, SweepOptions options)
      throws IOException, ReportFormatException;

  /**
   * Watches {@code proxies} (the relay's proxied links, by name) over every cell from now on, so
   * each cell records each link's health; a sweep never told has none recorded.
   */
  default void watchLinks(Map<String, DelayProxy> proxies) {}

  /** Stops the sweep after its running cell; callable from any thread. */
  void interrupt();

  /** Makes one sweep per arm. */
  @FunctionalInterface
  interface Factory {
    ArmSweep create(SweepProgress progress);

    /** {@link SweepRunner}s sharing one metrics scraper. */
    static Factory real() {
      MetricsScraper scraper = SweepRunner.defaultScraper();
      return progress -> new SweepRunner(scraper, progress);
    }
  }
}
