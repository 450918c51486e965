package dev.ceiling.rig;

import dev.ceiling.core.model.Target;
import dev.ceiling.core.net.Loopback;
import dev.ceiling.core.net.LoopbackAddress;
import java.net.URI;
import java.util.List;

/**
 * The descriptor's URLs with every loopback name ({@code localhost}, {@code a.localhost}) replaced
 * by the address it connects to, chosen once the relay serves ({@link LoopbackAddress}: 127.0.0.1,
 * or ::1 when only that accepts). Everything that reads a descriptor then connects to an address
 * and never looks a name up; a target keeps the name as its Host header, because a relay may serve
 * communities by Host. Each replacement is said in a note.
 */
final class LoopbackUrls {
  private LoopbackUrls() {}

  /** {@code url} pinned, or {@code url} itself (null, an address, or a name the rule refused). */
  static String pin(String field, String url, List<String> notes) {
    if (url == null) {
      return null;
    }
    URI written = URI.create(url);
    if (!Loopback.isLoopbackName(written.getHost())) {
      return url;
    }
    int port = LoopbackAddress.port(written);
    LoopbackAddress.Choice c =
        LoopbackAddress.choose(written.getHost(), port, LoopbackAddress.TRIAL);
    notes.add(field + " " + c.describe(port));
    return LoopbackAddress.withHost(written, c.urlHost()).toString();
  }

  /** {@code t} with its URL pinned and, when it had none, the name it was written with as Host. */
  static Target pin(Target t, List<String> notes) {
    String url = pin("target '" + t.community() + "'", t.url(), notes);
    if (url.equals(t.url())) {
      return t;
    }
    String host =
        t.hostHeader() != null ? t.hostHeader() : LoopbackAddress.hostHeader(URI.create(t.url()));
    return new Target(t.community(), url, host, t.tags(), t.kind(), t.contentBytes());
  }

  /** {@code c} with its URL pinned and {@code metricsUrl} (the descriptor's, already pinned). */
  static DelayControl pin(DelayControl c, String metricsUrl, List<String> notes) {
    return new DelayControl(
        c.name(),
        URI.create(pin("delay control '" + c.name() + "'", c.url().toString(), notes)),
        c.turnsMetric(),
        c.latenessMetric(),
        URI.create(metricsUrl));
  }
}
