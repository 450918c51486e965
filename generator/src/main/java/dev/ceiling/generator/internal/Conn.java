package dev.ceiling.generator.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ceiling.nostr.EventSigner;
import dev.ceiling.nostr.NostrEvent;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.exceptions.MessageTooLargeException;
import org.eclipse.jetty.websocket.common.WebSocketSession;
import org.eclipse.jetty.websocket.core.CoreSession;

/**
 * One WebSocket connection to a target: receives OK / NOTICE / AUTH frames on Jetty's threads and
 * counts whatever else arrives as a protocol error, never throwing back into Jetty.
 */
public final class Conn implements Session.Listener.AutoDemanding {
  private static final ObjectMapper PARSER = new ObjectMapper();

  final TargetRun target;
  final int index;
  final AtomicInteger inflight = new AtomicInteger();
  final Set<String> authIds = ConcurrentHashMap.newKeySet();
  private final RunClock clock;
  volatile Session session;

  /**
   * Jetty's core session under {@link #session}: the sender batches pre-encoded frames and flushes
   * through it, which the jetty-websocket API has no call for.
   */
  volatile CoreSession core;

  volatile boolean dead;
  volatile boolean closingByUs;
  final Callback writeCallback;

  /** The same failure handling for the core frames the sender writes. */
  final org.eclipse.jetty.util.Callback frameCallback;

  Conn(TargetRun target, int index, RunClock clock) {
    this.target = target;
    this.index = index;
    this.clock = clock;
    this.writeCallback =
        Callback.from(
            () -> {},
            err -> {
              if (!closingByUs) {
                target.onTransportError("write", describe() + ": " + err);
                dead = true;
              }
            });
    this.frameCallback =
        org.eclipse.jetty.util.Callback.from(
            () -> {},
            err -> {
              if (!closingByUs) {
                target.onTransportError("write", describe() + ": " + err);
                dead = true;
              }
            });
  }

  /** Events sent on this connection and not yet answered. */
  public int inflight() {
    return inflight.get();
  }

  String describe() {
    return "target "
        + (target.index + 1)
        + " ("
        + target.load.target().url()
        + (target.load.target().hostHeader() == null
            ? ""
            : ", Host " + target.load.target().hostHeader())
        + ") connection "
        + (index + 1);
  }

  @Override
  public void onWebSocketOpen(Session s) {
    this.core = s instanceof WebSocketSession w ? w.getCoreSession() : null;
    this.session = s;
  }

  @Override
  public void onWebSocketText(String message) {
    long now = System.nanoTime();
    try {
      handle(message, now);
    } catch (RuntimeException e) {
      // A relay must never be able to crash the generator: whatever it sends is counted.
      target.onTransportError("protocol", describe() + ": cannot handle frame: " + e);
    }
  }

  private void handle(String message, long now) {
    // One OK per event: read it without a tree (OkFrame); everything else is rare.
    OkFrame ok = OkFrame.read(message);
    switch (ok.kind()) {
      case OK -> {
        target.onOk(
            this,
            ok.id(),
            ok.accepted(),
            ok.message(),
            now,
            clock.startNanos(),
            clock.strategies());
        return;
      }
      case MALFORMED -> {
        target.onTransportError("protocol", describe() + ": malformed OK: " + abbreviate(message));
        return;
      }
      case INVALID_JSON -> {
        target.onTransportError("protocol", describe() + ": invalid JSON: " + abbreviate(message));
        return;
      }
      case NOT_OK -> {
        // read below
      }
    }
    JsonNode n;
    try {
      n = PARSER.readTree(message);
    } catch (java.io.IOException e) {
      target.onTransportError("protocol", describe() + ": invalid JSON: " + abbreviate(message));
      return;
    }
    if (n == null || !n.isArray() || n.size() < 1 || !n.get(0).isTextual()) {
      target.onTransportError(
          "protocol", describe() + ": not a relay message: " + abbreviate(message));
      return;
    }
    switch (n.get(0).asText()) {
      case "NOTICE" -> target.onNotice(n.size() > 1 ? n.get(1).asText() : "");
      case "AUTH" -> {
        if (n.size() < 2 || !n.get(1).isTextual()) {
          target.onTransportError(
              "protocol", describe() + ": malformed AUTH: " + abbreviate(message));
          return;
        }
        clock.strategies().authResponder().onChallenge(this, n.get(1).asText());
      }
      default -> {
        // EOSE, CLOSED, EVENT, COUNT: valid relay messages we did not ask for; ignore them.
      }
    }
  }

  /** Counts the challenge and answers it with a signed kind-22242 event (NIP-42). */
  void answerAuth(String challenge) {
    target.onAuthChallenge();
    NostrEvent auth =
        EventSigner.sign(
            target.keys[0],
            System.currentTimeMillis() / 1000,
            22242,
            List.of(List.of("relay", target.load.target().url()), List.of("challenge", challenge)),
            "");
    authIds.add(auth.id());
    Session s = session;
    if (s != null) {
      s.sendText("[\"AUTH\"," + auth.toJson() + "]", writeCallback);
    }
  }

  @Override
  public void onWebSocketError(Throwable cause) {
    if (closingByUs) {
      return;
    }
    String kind = cause instanceof MessageTooLargeException ? "frame_too_large" : "error";
    target.onTransportError(kind, describe() + ": " + cause);
    dead = true;
  }

  @Override
  public void onWebSocketClose(int statusCode, String reason, Callback callback) {
    try {
      if (!closingByUs) {
        dead = true;
        target.onTransportError(
            "close", describe() + ": closed by relay mid-run, status " + statusCode + " " + reason);
      }
    } finally {
      callback.succeed();
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 120 ? s : s.substring(0, 120) + "... (" + s.length() + " chars)";
  }
}
