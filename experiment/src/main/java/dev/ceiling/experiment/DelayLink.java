package dev.ceiling.experiment;

import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.proxy.DelayProxy;
import dev.ceiling.rig.proxy.LinkCounters;
import java.io.IOException;
import java.time.Duration;

/**
 * The link a delay sweep moves: a {@link DelayProxy} on one of the relay's TCP upstreams, or a
 * delay the relay injects itself through a {@link dev.ceiling.rig.DelayControl}. Either way the
 * sweep sets an added delay per cell and reads the round trips made on the link.
 */
interface DelayLink {
  /**
   * Adds {@code delay} to every round trip on the link from now on.
   *
   * @throws IOException when the relay did not take it (a control's PUT failed or was refused)
   */
  void setDelay(Duration delay) throws IOException;

  /** Sets the added delay back to zero; why it could not, or null when it did. */
  default String resetToZero() {
    try {
      setDelay(Duration.ZERO);
      return null;
    } catch (IOException e) {
      return "setting it back to zero: " + e;
    }
  }

  /**
   * The link's counters since it started: for a proxy everything it carried; for a control only its
   * turns, as the relay counts them.
   *
   * @throws IOException when the relay's counter cannot be read
   */
  LinkCounters counters() throws IOException;

  /**
   * The link named {@code name} on {@code handle}'s relay, or null when it has neither a proxy nor
   * a delay control of that name.
   */
  static DelayLink of(RigHandle handle, String name, MetricsScraper scraper) {
    DelayProxy proxy = handle.proxies().get(name);
    if (proxy != null) {
      return new DelayLink() {
        @Override
        public void setDelay(Duration delay) {
          proxy.setDelay(delay);
        }

        @Override
        public LinkCounters counters() {
          return proxy.counters();
        }
      };
    }
    var control = handle.delayControls().get(name);
    return control == null ? null : new ControlLink(control, scraper);
  }

  /** The names of {@code handle}'s links: its proxies', then its controls'. */
  static java.util.List<String> names(RigHandle handle) {
    java.util.List<String> out = new java.util.ArrayList<>(handle.proxies().keySet());
    out.addAll(handle.delayControls().keySet());
    return out;
  }
}
