package dev.ceiling.rig;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The rule that Ceiling only ever talks to loopback: applied by {@code rig up} to the profile's
 * URLs, and by everything that reads a descriptor or pid file (which a user can edit or craft)
 * before it connects.
 */
public final class Loopback {
  private Loopback() {}

  /** True when the URL's host is 127.0.0.0/8, ::1, localhost or a *.localhost name. */
  public static boolean isLoopback(String url) {
    String host;
    try {
      host = url == null ? null : URI.create(url).getHost();
    } catch (IllegalArgumentException e) {
      host = null;
    }
    if (host == null) {
      return false;
    }
    String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    if ("localhost".equals(h) || h.endsWith(".localhost")) {
      return true;
    }
    try {
      return InetAddress.getByName(h).isLoopbackAddress();
    } catch (IOException e) {
      return false;
    }
  }

  /** One line per URL of the descriptor that is not loopback; empty when all are. */
  public static List<String> problems(RigDescriptor d) {
    List<String> out = new ArrayList<>();
    check(out, "health_url", d.healthUrl());
    check(out, "metrics_url", d.metricsUrl());
    for (int i = 0; i < d.targets().size(); i++) {
      Target t = d.targets().get(i);
      check(out, "targets[" + i + "].url", t.url());
    }
    return out;
  }

  private static void check(List<String> out, String field, String url) {
    if (url != null && !isLoopback(url)) {
      out.add(field + " must point at loopback (127.0.0.1, ::1, localhost), got " + url);
    }
  }
}
