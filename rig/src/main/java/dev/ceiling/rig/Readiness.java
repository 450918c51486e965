package dev.ceiling.rig;

import java.util.Objects;
import java.util.Set;

/**
 * How a profile says its relay is ready, the {@code readiness} field of a profile. The kind picks
 * how the rig asks; the address comes from the profile's other fields at {@code up}.
 */
public sealed interface Readiness
    permits Readiness.HttpHealth, Readiness.WebSocketHandshake, Readiness.TcpAccept {

  /** As the profile writes it: {@code "health"}, {@code "websocket"} or {@code "tcp:NAME"}. */
  String serialized();

  /** {@code GET health_url} returns 200. The default. */
  record HttpHealth() implements Readiness {
    @Override
    public String serialized() {
      return "health";
    }
  }

  /** The opening WebSocket handshake on the first target's URL succeeds (no health endpoint). */
  record WebSocketHandshake() implements Readiness {
    @Override
    public String serialized() {
      return "websocket";
    }
  }

  /**
   * The named port accepts a TCP connection.
   *
   * @param port a port name the profile declares
   */
  record TcpAccept(String port) implements Readiness {
    public TcpAccept {
      Objects.requireNonNull(port, "port must not be null");
      if (port.isBlank()) {
        throw new IllegalArgumentException("port must name a port, got \"" + port + "\"");
      }
    }

    @Override
    public String serialized() {
      return "tcp:" + port;
    }
  }

  /**
   * Reads the profile's form.
   *
   * @param text "health", "websocket" or "tcp:NAME"
   * @param ports the profile's port names, one of which a tcp readiness must name
   * @throws IllegalArgumentException saying what was expected and what was given
   */
  static Readiness parse(String text, Set<String> ports) {
    if ("health".equals(text)) {
      return new HttpHealth();
    }
    if ("websocket".equals(text)) {
      return new WebSocketHandshake();
    }
    if (text != null && text.startsWith("tcp:") && ports.contains(text.substring(4))) {
      return new TcpAccept(text.substring(4));
    }
    throw new IllegalArgumentException(
        "must be \"health\", \"websocket\" or \"tcp:<port name>\" with a port from $.ports "
            + ports
            + ", got \""
            + text
            + "\"");
  }
}
