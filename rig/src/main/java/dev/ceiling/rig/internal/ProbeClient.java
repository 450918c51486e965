package dev.ceiling.rig.internal;

import java.net.http.HttpClient;

/** The one HTTP client of the readiness probes ({@link Probe}), shared by all of them. */
final class ProbeClient {
  /**
   * HTTP/1.1 only: the JDK's default HTTP/2 sends {@code Upgrade: h2c}, which a Node relay that
   * serves /health and its WebSocket on one server answers with a broken response. Redirects are
   * not followed: a health URL that redirects is not answering 200.
   */
  static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Probe.CONNECT)
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();

  private ProbeClient() {}
}
