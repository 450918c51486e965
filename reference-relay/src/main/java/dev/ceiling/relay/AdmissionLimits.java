package dev.ceiling.relay;

import java.util.Objects;
import java.util.Optional;

/**
 * The relay's admission decision: the per-(community, pubkey) limiter, then, when configured, the
 * per-(community, remote IP address) one over the same window. The per-IP check runs only for
 * events the per-pubkey one admitted, so a per-IP refusal has used its pubkey's quota, as an event
 * refused later for its signature has: each limiter counts what reached it.
 *
 * <p>Thread-safe (each limiter is).
 */
final class AdmissionLimits {
  /** What the limiters decided about one event. */
  enum Decision {
    ADMITTED(null),
    /** Refused by the per-pubkey limiter. */
    QUOTA("quota"),
    /** Refused by the per-IP limiter. */
    QUOTA_IP("quota_ip");

    private final String reason;

    Decision(String reason) {
      this.reason = reason;
    }

    /** The {@code reason} label of refrelay_admission_rejections_total; null when admitted. */
    String reason() {
      return reason;
    }
  }

  private final AdmissionLimiter perPubkey;
  private final Optional<AdmissionLimiter> perIp;

  /**
   * @param perPubkey keyed by (community, pubkey)
   * @param perIp keyed by (community, remote IP address); empty when there is no per-IP limit
   */
  AdmissionLimits(AdmissionLimiter perPubkey, Optional<AdmissionLimiter> perIp) {
    this.perPubkey = Objects.requireNonNull(perPubkey, "perPubkey");
    this.perIp = Objects.requireNonNull(perIp, "perIp");
  }

  /** Decides and counts one event of {@code pubkey} that arrived from {@code ip}. */
  Decision admit(String community, String pubkey, String ip) {
    if (!perPubkey.tryAdmit(community, pubkey)) {
      return Decision.QUOTA;
    }
    if (perIp.isPresent() && !perIp.get().tryAdmit(community, ip)) {
      return Decision.QUOTA_IP;
    }
    return Decision.ADMITTED;
  }
}
