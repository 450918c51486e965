package dev.ceiling.generator.internal;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Decides, without DNS, whether a URL host is loopback. A name we would have to resolve counts as
 * remote: resolution can change under us, and refusing is the safe side of a load generator.
 */
public final class Loopback {
  private static final Pattern V4_LOOPBACK =
      Pattern.compile("127\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){2}");

  private Loopback() {}

  /** True for localhost, *.localhost (RFC 6761), 127.0.0.0/8 and ::1. */
  public static boolean isLoopbackHost(String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    return h.equals("localhost")
        || h.endsWith(".localhost")
        || V4_LOOPBACK.matcher(h).matches()
        || h.equals("::1")
        || h.equals("0:0:0:0:0:0:0:1");
  }
}
