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
 * URL's host is loopback when it is written as an address in 127.0.0.0/8 or as ::1, or when it is
 * {@code localhost}, {@code localhost.} or a name under {@code .localhost}. RFC 6761 makes those
 * names loopback by definition, so the rule knows them from their spelling alone; they are never
 * looked up, here or where the code connects ({@link LoopbackAddress} picks 127.0.0.1 or ::1 for
 * them). Every other name is refused, even one the hosts file or DNS maps to 127.0.0.1: a lookup
 * happens at connect time, its answer can change under us, and refusing is the safe side.
 *
 * <p>Pure string work, no resolution and no I/O; thread-safe.
 */
public final class Loopback {
  /** What the rule accepts, as a refusal states it. */
  public static final String ACCEPTED =
      "127.0.0.0/8 or ::1 written as an address, or localhost and names under .localhost;"
          + " other names are not resolved";

  private static final Pattern V4_LOOPBACK =
      Pattern.compile("127\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){2}");

  /**
   * {@code localhost}, or labels (letters, digits, inner hyphens; 1 to 63 characters) ending in
   * {@code .localhost}, with at most one trailing dot (the absolute form). An empty label ({@code
   * a..localhost}, {@code localhost..}) is no name at all.
   */
  private static final Pattern LOCALHOST_NAME =
      Pattern.compile("([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)*localhost\\.?");

  /** The longest host name DNS allows, in characters, with the trailing dot. */
  private static final int MAX_NAME_CHARS = 254;

  private Loopback() {}

  /**
   * True when {@code host} (as {@link URI#getHost} gives it, IPv6 in brackets or not) is an address
   * in 127.0.0.0/8 or ::1, or a loopback name ({@link #isLoopbackName}); false for every other name
   * and for null.
   */
  public static boolean isLoopbackHost(String host) {
    return isLoopbackAddress(host) || isLoopbackName(host);
  }

  /**
   * True when {@code host} is written as an address in 127.0.0.0/8 or ::1 (IPv6 in brackets or
   * not); false for every name, {@code localhost} included, and for null.
   */
  public static boolean isLoopbackAddress(String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    return V4_LOOPBACK.matcher(h).matches() || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1");
  }

  /**
   * True when {@code host} is {@code localhost}, {@code localhost.} or a name ending in {@code
   * .localhost} (with or without the trailing dot), in any case: loopback by definition (RFC 6761,
   * section 6.3), known without a lookup. False for null, for names that only contain {@code
   * localhost} ({@code xlocalhost}, {@code localhost.evil.com}) and for names with an empty label.
   */
  public static boolean isLoopbackName(String host) {
    if (host == null || host.length() > MAX_NAME_CHARS) {
      return false;
    }
    return LOCALHOST_NAME.matcher(host.toLowerCase(Locale.ROOT)).matches();
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
