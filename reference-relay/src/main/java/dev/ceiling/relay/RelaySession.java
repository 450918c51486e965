package dev.ceiling.relay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ceiling.nostr.EventVerifier;
import dev.ceiling.nostr.NostrEvent;
import dev.ceiling.nostr.NostrException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/**
 * One WebSocket connection. Explicit demand (not auto-demanding): Jetty calls {@link
 * #onWebSocketText} on one of its own threads, which only hands the message to the handler executor
 * and returns; the handler processes it (and may block on the full audit queue) and only then calls
 * {@link Session#demand()} for the next message. So a full queue blocks exactly this connection's
 * processing, never a Jetty selector or pool thread, and messages of one connection are handled
 * strictly in order.
 */
public final class RelaySession implements Session.Listener {
  private static final Logger LOG = Logger.getLogger(RelaySession.class.getName());
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final RelayCore core;
  private final String community;
  private final String hostHeader;
  private final Executor handlers;
  private volatile Session session;

  /** The peer's IP address, the per-IP limiter's key; set on open, before the first message. */
  private volatile String remoteIp;

  private long eventsSeen;

  RelaySession(RelayCore core, String community, String hostHeader, Executor handlers) {
    this.core = core;
    this.community = community;
    this.hostHeader = hostHeader;
    this.handlers = handlers;
  }

  @Override
  public void onWebSocketOpen(Session s) {
    this.session = s;
    this.remoteIp = ipOf(s.getRemoteSocketAddress());
    if (community == null) {
      send(notice("error: unknown community host '" + hostHeader + "'"));
      s.close(1008, "unknown community", Callback.NOOP);
      return;
    }
    s.demand();
  }

  @Override
  public void onWebSocketText(String message) {
    try {
      handlers.execute(
          () -> {
            boolean keepReading = true;
            try {
              keepReading = handle(message);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              keepReading = false;
            } catch (RuntimeException e) {
              LOG.log(Level.WARNING, "handler failed", e);
              send(notice("error: internal error"));
            } finally {
              Session s = session;
              if (keepReading && s != null && s.isOpen()) {
                s.demand();
              }
            }
          });
    } catch (RejectedExecutionException e) {
      // The relay is shutting down; the connection goes with it.
      session.close(1001, "relay shutting down", Callback.NOOP);
    }
  }

  @Override
  public void onWebSocketError(Throwable cause) {
    LOG.log(Level.FINE, "websocket error", cause);
  }

  /** Handles one frame; false when the connection was closed and must not read on. */
  private boolean handle(String message) throws InterruptedException {
    JsonNode root;
    try {
      root = MAPPER.readTree(message);
    } catch (JsonProcessingException e) {
      send(notice("error: malformed JSON: " + e.getOriginalMessage()));
      return true;
    }
    if (root == null || !root.isArray() || root.isEmpty() || !root.get(0).isTextual()) {
      send(notice("error: a message must be a JSON array starting with a string"));
      return true;
    }
    return switch (root.get(0).asText()) {
      case "EVENT" -> onEvent(root);
      case "REQ" -> {
        onReq(root);
        yield true;
      }
      // Subscriptions are answered from storage and end at EOSE; nothing stays open to close.
      case "CLOSE" -> true;
      default -> {
        send(notice("error: unknown message type " + root.get(0).asText()));
        yield true;
      }
    };
  }

  private boolean onEvent(JsonNode root) throws InterruptedException {
    if (root.size() != 2) {
      send(notice("error: EVENT takes exactly one event object"));
      return true;
    }
    NostrEvent e;
    try {
      e = NostrEvent.fromJsonNode(root.get(1));
    } catch (NostrException ex) {
      JsonNode id = root.get(1).path("id");
      if (id.isTextual()) {
        core.metrics.eventsRejected.labelValues("invalid").inc();
        send(ok(id.asText(), false, "invalid: " + ex.getMessage()));
      } else {
        send(notice("invalid: " + ex.getMessage()));
      }
      return countAndMaybeClose();
    }
    processEvent(e);
    return countAndMaybeClose();
  }

  private void processEvent(NostrEvent e) throws InterruptedException {
    ReferenceRelayConfig cfg = core.config;
    // Admission first, as the seed's relay does: it is the cheapest check.
    if (core.faults.limiterUnavailable()) {
      core.metrics.admissionRejections.labelValues("websocket", "unavailable").inc();
      core.metrics.eventsRejected.labelValues("error").inc();
      if (cfg.rejectMode() == ReferenceRelayConfig.RejectMode.NOTICE) {
        send(notice("error: admission limiter unavailable"));
      } else {
        send(ok(e.id(), false, "error: admission limiter unavailable"));
      }
      return;
    }
    AdmissionLimits.Decision admission = core.limits.admit(community, e.pubkey(), remoteIp);
    if (admission == AdmissionLimits.Decision.QUOTA) {
      rateLimited(e, admission, cfg.limiterLimitPerWindow(), "this pubkey");
      return;
    }
    if (admission == AdmissionLimits.Decision.QUOTA_IP) {
      rateLimited(e, admission, cfg.limiterPerIpLimitPerWindow(), "this IP address");
      return;
    }
    if (!e.idMatches()) {
      core.metrics.eventsRejected.labelValues("invalid").inc();
      send(ok(e.id(), false, "invalid: event id does not match its content"));
      return;
    }
    if (cfg.verifySignatures() && !EventVerifier.verify(e)) {
      core.metrics.eventsRejected.labelValues("invalid").inc();
      send(ok(e.id(), false, "invalid: signature does not verify"));
      return;
    }
    if (!core.store.add(community, e)) {
      core.metrics.eventsRejected.labelValues("duplicate").inc();
      // NIP-01: a duplicate is answered true with the duplicate: prefix.
      send(ok(e.id(), true, "duplicate: already have this event"));
      return;
    }
    if (core.audit != null) {
      try {
        core.audit.enqueue(new AuditEntry(community, e.id(), e.pubkey(), e.kind(), e.createdAt()));
      } catch (AuditLog.EnqueueException ex) {
        core.store.remove(community, e.id());
        core.metrics.eventsRejected.labelValues("error").inc();
        send(ok(e.id(), false, "error: audit log unavailable"));
        return;
      }
    }
    core.metrics.eventsAccepted.labelValues(community).inc();
    if (core.faults.dropOk()) {
      core.metrics.okDropped.inc();
      return;
    }
    send(ok(e.id(), true, ""));
  }

  /** Counts and answers a limiter's refusal, per the reject mode. */
  private void rateLimited(
      NostrEvent e, AdmissionLimits.Decision refusal, int limitPerWindow, String per) {
    ReferenceRelayConfig cfg = core.config;
    core.metrics.admissionRejections.labelValues("websocket", refusal.reason()).inc();
    core.metrics.eventsRejected.labelValues("rate-limited").inc();
    String why =
        "rate-limited: more than "
            + limitPerWindow
            + " events in "
            + cfg.limiterWindowSeconds()
            + " s for "
            + per;
    if (cfg.rejectMode() == ReferenceRelayConfig.RejectMode.NOTICE) {
      // The seed relay's trap, reproduced on purpose: no event id, so a NIP-01 client that
      // waits for OK cannot tell which event was refused.
      send(notice(why));
    } else {
      send(ok(e.id(), false, why));
    }
  }

  /** The address without its port; the whole address's text for anything but an IP socket. */
  static String ipOf(SocketAddress a) {
    if (a instanceof InetSocketAddress inet && inet.getAddress() != null) {
      return inet.getAddress().getHostAddress();
    }
    return String.valueOf(a);
  }

  private boolean countAndMaybeClose() {
    eventsSeen++;
    long closeAfter = core.config.faults().closeAfterEvents();
    if (closeAfter > 0 && eventsSeen >= closeAfter) {
      core.metrics.faultCloses.inc();
      session.close(1011, "fault: closed after " + closeAfter + " events", Callback.NOOP);
      return false;
    }
    return true;
  }

  private void onReq(JsonNode root) {
    if (root.size() < 2 || !root.get(1).isTextual()) {
      send(notice("error: REQ needs a subscription id"));
      return;
    }
    String sub = root.get(1).asText();
    try {
      java.util.Set<String> sent = new java.util.HashSet<>();
      for (int i = 2; i < root.size(); i++) {
        List<NostrEvent> found = core.store.query(community, root.get(i));
        for (NostrEvent e : found) {
          if (sent.add(e.id())) {
            send("[\"EVENT\"," + quote(sub) + "," + e.toJson() + "]");
          }
        }
      }
    } catch (IllegalArgumentException ex) {
      send("[\"CLOSED\"," + quote(sub) + "," + quote("invalid: " + ex.getMessage()) + "]");
      return;
    }
    send("[\"EOSE\"," + quote(sub) + "]");
  }

  private void send(String text) {
    Session s = session;
    if (s != null && s.isOpen()) {
      s.sendText(text, Callback.NOOP);
    }
  }

  static String notice(String message) {
    ArrayNode a = NODES.arrayNode();
    a.add("NOTICE").add(message);
    return a.toString();
  }

  static String ok(String id, boolean accepted, String message) {
    ArrayNode a = NODES.arrayNode();
    a.add("OK").add(id).add(accepted).add(message);
    return a.toString();
  }

  private static String quote(String s) {
    return NODES.textNode(s).toString();
  }
}
