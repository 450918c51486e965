package dev.ceiling.core.net;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one rule for "this machine", which keeps load and faults off relays the user does not run: a
 * URL's host is loopback only when it is written as an address in 127.0.0.0/8 or as ::1. No name
 * counts, {@code localhost} included: a name is resolved at connect time (by /etc/hosts or DNS),
 * which can change under us, and refusing is the safe side. A Host header is not where we connect,
 * so {@code a.localhost} stays fine there.
 *
 * <p>Pure string work, no resolution and no I/O; thread-safe.
 */
public final class Loopback {
  /** What the rule accepts, as a refusal states it. */
  public static final String ACCEPTED =
      "127.0.0.0/8 or ::1 written as an address; names, localhost included, are not resolved";

  private static final Pattern V4_LOOPBACK =
      Pattern.compile("127\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){2}");

  private Loopback() {}

  /**
   * True when {@code host} (as {@link URI#getHost} gives it, IPv6 in brackets or not) is an address
   * in 127.0.0.0/8 or ::1; false for every name and for null.
   */
  public static boolean isLoopbackHost(String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    return V4_LOOPBACK.matcher(h).matches() || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1");
  }

  /** True when {@code url} parses and its host is loopback ({@link #isLoopbackHost}). */
  public static boolean isLoopbackUrl(String url) {
    return isLoopbackHost(host(url));
  }

  /**
   * The host of {@code url}, or null when it does not parse or has none; for naming the host in a
   * refusal.
   */
  public static String host(String url) {
    try {
      return url == null ? null : URI.create(url).getHost();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * One line when {@code url} (the value of {@code field}) is not loopback: {@code FIELD must point
   * at loopback (...), got URL}; empty when it is, or when {@code url} is null (not configured).
   */
  public static Optional<String> problem(String field, String url) {
    if (url == null || isLoopbackUrl(url)) {
      return Optional.empty();
    }
    return Optional.of(field + " must point at loopback (" + ACCEPTED + "), got " + url);
  }

  /**
   * One line per URL of the descriptor that is not loopback; empty when all are. A descriptor is a
   * file anyone can edit, so everything that reads one checks it before it connects.
   */
  public static List<String> problems(RigDescriptor d) {
    List<String> out = new ArrayList<>();
    problem("health_url", d.healthUrl()).ifPresent(out::add);
    problem("metrics_url", d.metricsUrl()).ifPresent(out::add);
    for (int i = 0; i < d.targets().size(); i++) {
      Target t = d.targets().get(i);
      problem("targets[" + i + "].url", t.url()).ifPresent(out::add);
    }
    return out;
  }
}
