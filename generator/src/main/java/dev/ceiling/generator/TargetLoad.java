package dev.ceiling.generator;

import dev.ceiling.core.model.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the generator offers one target: a rate, spread over some connections, signed by some
 * identities.
 *
 * @param target where to connect and what each event carries; its {@code contentBytes} must be at
 *     least {@link #MIN_CONTENT_BYTES} so every event of every run is unique
 * @param ratePerS the offered rate for this target over the whole schedule (all segments),
 *     events/s, finite and > 0
 * @param connections WebSocket connections the slots are spread over round-robin, 1 to {@link
 *     #MAX_CONNECTIONS}
 * @param identities keys that sign the events round-robin, 1 to {@link #MAX_IDENTITIES}
 */
public record TargetLoad(Target target, double ratePerS, int connections, int identities) {

  public static final int MAX_CONNECTIONS = 10_000;
  public static final int MAX_IDENTITIES = 100_000;

  /** The least content per event: {@link Target#MIN_LOAD_CONTENT_BYTES} says why. */
  public static final int MIN_CONTENT_BYTES = Target.MIN_LOAD_CONTENT_BYTES;

  public TargetLoad {
    List<String> problems = problems(target, ratePerS, connections, identities);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
  }

  /** Every problem with these values, empty when they are valid. */
  public static List<String> problems(
      Target target, double ratePerS, int connections, int identities) {
    List<String> p = new ArrayList<>();
    if (target == null) {
      p.add("target must not be null");
    } else if (target.contentBytes() < MIN_CONTENT_BYTES) {
      p.add(
          "content must be >= "
              + MIN_CONTENT_BYTES
              + " bytes so every event is unique, got "
              + target.contentBytes());
    }
    if (!(ratePerS > 0) || Double.isInfinite(ratePerS)) {
      p.add("rate must be a finite number > 0 events/s, got " + ratePerS);
    }
    if (connections < 1 || connections > MAX_CONNECTIONS) {
      p.add("conns must be in [1, " + MAX_CONNECTIONS + "], got " + connections);
    }
    if (identities < 1 || identities > MAX_IDENTITIES) {
      p.add("identities must be in [1, " + MAX_IDENTITIES + "], got " + identities);
    }
    return p;
  }

  /** One line: {@code community@url(host)=rate/s x conns conns, N ids, kind K, C B}. */
  public String describe() {
    Objects.requireNonNull(target);
    return target.community()
        + "@"
        + target.url()
        + (target.hostHeader() == null ? "" : "(host " + target.hostHeader() + ")")
        + " "
        + fmt(ratePerS)
        + "/s over "
        + connections
        + " conns, "
        + identities
        + " ids, kind "
        + target.kind()
        + ", tags "
        + target.tags()
        + ", "
        + target.contentBytes()
        + " B";
  }

  static String fmt(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
