package dev.ceiling.core.net;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a connection to a loopback name goes, decided without any lookup. {@link Loopback} accepts
 * {@code localhost} and names under {@code .localhost} by their spelling; handing such a name to
 * the JDK's resolver would read the hosts file (or ask DNS), which is the lookup the rule promises
 * not to make. So the code that connects asks here for an address and connects to it.
 *
 * <p>How the address is chosen: 127.0.0.1 when a TCP connection to it on the port is accepted
 * within the timeout, else ::1 when that is, else 127.0.0.1 (the connection then fails naming
 * 127.0.0.1). A relay usually listens on 127.0.0.1 or on every address; trying ::1 second finds the
 * one that listens only there. The trial connection is opened and closed at once, before the
 * caller's own connection; it is not reused. Thread-safe; the only I/O is that trial.
 */
public final class LoopbackAddress {
  /** How long the trial connection on each address may take. */
  public static final Duration TRIAL = Duration.ofMillis(500);

  private static final InetAddress V4 = literal(new byte[] {127, 0, 0, 1});
  private static final InetAddress V6 =
      literal(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});

  private LoopbackAddress() {}

  /**
   * The address a connection to {@code host} on {@code port} goes to, and why.
   *
   * @param host the name as written, a loopback name ({@link Loopback#isLoopbackName})
   * @param address 127.0.0.1 or ::1
   * @param how how it was chosen, for a progress line
   */
  public record Choice(String host, InetAddress address, String how) {
    public Choice {
      Objects.requireNonNull(host, "host must not be null");
      Objects.requireNonNull(address, "address must not be null");
      Objects.requireNonNull(how, "how must not be null");
    }

    /** The address as a URL writes it: {@code 127.0.0.1} or {@code [::1]}. */
    public String urlHost() {
      return address instanceof Inet6Address ? "[::1]" : address.getHostAddress();
    }

    /** One phrase: {@code localhost:7777 connects to 127.0.0.1 (it accepted a connection)}. */
    public String describe(int port) {
      return host + ":" + port + " connects to " + urlHost() + " (" + how + ")";
    }
  }

  /**
   * The address for {@code host} on {@code port}: tries 127.0.0.1, then ::1, each for at most
   * {@code trial}.
   *
   * @throws IllegalArgumentException when {@code host} is not a loopback name, or the port is not
   *     in [1, 65535]
   */
  public static Choice choose(String host, int port, Duration trial) {
    if (!Loopback.isLoopbackName(host)) {
      throw new IllegalArgumentException(
          "host must be localhost or a name under .localhost, got " + host);
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be in [1, 65535], got " + port);
    }
    if (accepts(V4, port, trial)) {
      return new Choice(host, V4, "it accepted a connection");
    }
    if (accepts(V6, port, trial)) {
      return new Choice(host, V6, "127.0.0.1 refused, ::1 accepted a connection");
    }
    return new Choice(host, V4, "neither 127.0.0.1 nor ::1 accepted a connection yet");
  }

  /**
   * {@code uri} with a loopback name replaced by the chosen address ({@link #choose}), path, query
   * and user-info kept as written; {@code uri} itself when its host is not a loopback name. The
   * port defaults by scheme (80 for ws and http, 443 for wss and https).
   */
  public static URI connectUri(URI uri, Duration trial) {
    String host = uri.getHost();
    if (!Loopback.isLoopbackName(host)) {
      return uri;
    }
    int port = port(uri);
    Choice c = choose(host, port, trial);
    return withHost(uri, c.urlHost());
  }

  /** {@code uri}'s port, or its scheme's default (443 for wss/https, else 80). */
  public static int port(URI uri) {
    if (uri.getPort() > 0) {
      return uri.getPort();
    }
    String s = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    return s.equals("wss") || s.equals("https") ? 443 : 80;
  }

  /**
   * {@code uri} with its host replaced by {@code urlHost} (a literal, IPv6 in brackets); the port
   * stays as written.
   */
  public static URI withHost(URI uri, String urlHost) {
    StringBuilder b = new StringBuilder();
    b.append(uri.getScheme()).append("://");
    if (uri.getRawUserInfo() != null) {
      b.append(uri.getRawUserInfo()).append('@');
    }
    b.append(urlHost);
    if (uri.getPort() > 0) {
      b.append(':').append(uri.getPort());
    }
    if (uri.getRawPath() != null) {
      b.append(uri.getRawPath());
    }
    if (uri.getRawQuery() != null) {
      b.append('?').append(uri.getRawQuery());
    }
    if (uri.getRawFragment() != null) {
      b.append('#').append(uri.getRawFragment());
    }
    return URI.create(b.toString());
  }

  /** The Host header a request to {@code uri} carries: the host as written, and its port. */
  public static String hostHeader(URI uri) {
    return uri.getPort() > 0 ? uri.getHost() + ":" + uri.getPort() : uri.getHost();
  }

  private static boolean accepts(InetAddress a, int port, Duration trial) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(a, port), (int) Math.max(1, trial.toMillis()));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static InetAddress literal(byte[] bytes) {
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new AssertionError("a 4- or 16-byte address is always valid", e);
    }
  }
}
