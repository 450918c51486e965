package dev.ceiling.rig;

import dev.ceiling.core.model.RigDescriptor;
import java.util.Optional;

/**
 * Where the evidence of contamination (admission rejections, a limiter that bound) comes from: the
 * profile's {@code contamination_evidence}. It picks whether the profile must map metrics and
 * whether the sweep scrapes at all.
 */
public enum Evidence {
  /** The relay's own Prometheus counters, mapped by the profile's metric_mapping. */
  METRICS(RigDescriptor.EVIDENCE_METRICS),
  /** No metrics: what the generator sees (rejections, errors) stands in for them. */
  CLIENT(RigDescriptor.EVIDENCE_CLIENT);

  private final String key;

  Evidence(String key) {
    this.key = key;
  }

  /** As the profile and the descriptor write it: "metrics" or "client". */
  public String key() {
    return key;
  }

  /** The evidence a profile names, or empty for a word that is neither. */
  public static Optional<Evidence> fromKey(String key) {
    for (Evidence e : values()) {
      if (e.key.equals(key)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }
}
