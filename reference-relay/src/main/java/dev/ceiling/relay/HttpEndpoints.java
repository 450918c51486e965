package dev.ceiling.relay;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The reference relay's HTTP endpoints: GET /health, /metrics, /calibrate, and PUT
 * /audit-exchange-delay (from loopback only), whose body is the delay in ms to add before each
 * audit exchange on top of {@code --audit-exchange-delay-ms}: a delay sweep's link that needs no
 * proxy.
 */
final class HttpEndpoints extends Handler.Abstract {
  private final ReferenceRelay.Holder holder;

  HttpEndpoints(ReferenceRelay.Holder holder) {
    this.holder = holder;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    ReferenceRelay relay = holder.relay;
    String path = Request.getPathInContext(request);
    boolean put = "PUT".equals(request.getMethod()) && ADDED_DELAY.equals(path);
    if (!"GET".equals(request.getMethod()) && !put) {
      return reply(
          response,
          callback,
          HttpStatus.METHOD_NOT_ALLOWED_405,
          "text/plain",
          "GET only, or PUT " + ADDED_DELAY + "\n");
    }
    if (relay == null) {
      return reply(response, callback, 503, "text/plain", "starting\n");
    }
    if (put) {
      return addDelay(relay, request, response, callback);
    }
    return switch (path) {
      case "/health" ->
          reply(
              response,
              callback,
              200,
              "application/json",
              "{\"status\":\"ok\",\"audit\":\"" + (relay.auditOn() ? "on" : "off") + "\"}\n");
      case "/metrics" ->
          reply(response, callback, 200, RelayMetrics.contentType(), relay.scrapeMetrics());
      case "/calibrate" -> calibrate(relay, response, callback);
      default -> reply(response, callback, 404, "text/plain", "not found: " + path + "\n");
    };
  }

  /** The path whose PUT sets the added delay. */
  static final String ADDED_DELAY = "/audit-exchange-delay";

  /** Longest body a PUT of the added delay may have: a number. */
  private static final int MAX_DELAY_BODY_CHARS = 64;

  /**
   * Sets the added delay from the body (ms, a decimal number). A relay under test whose latency any
   * host could change would measure whoever changed it, so only loopback may.
   */
  private static boolean addDelay(
      ReferenceRelay relay, Request request, Response response, Callback callback) {
    if (!loopback(Request.getRemoteAddr(request))) {
      return reply(
          response, callback, 403, "text/plain", ADDED_DELAY + " is for loopback clients only\n");
    }
    String body;
    try {
      body = Content.Source.asString(request, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return reply(response, callback, 400, "text/plain", "cannot read the body: " + e + "\n");
    }
    double millis;
    try {
      if (body.length() > MAX_DELAY_BODY_CHARS) {
        throw new NumberFormatException();
      }
      millis = Double.parseDouble(body);
    } catch (NumberFormatException e) {
      String shown = body.length() > MAX_DELAY_BODY_CHARS ? body.substring(0, 64) + "..." : body;
      return reply(
          response,
          callback,
          400,
          "text/plain",
          "the body must be the added delay in ms, a number, got '" + shown + "'\n");
    }
    try {
      relay.delay().setAddedMillis(millis);
    } catch (IllegalArgumentException e) {
      return reply(response, callback, 400, "text/plain", e.getMessage() + "\n");
    }
    return reply(
        response,
        callback,
        200,
        "application/json",
        "{\"added_delay_ms\":"
            + relay.delay().addedMillis()
            + ",\"delay_ms\":"
            + relay.delay().nanos() / 1e6
            + "}\n");
  }

  /** Whether {@code address} (an IP literal) is a loopback address. */
  static boolean loopback(String address) {
    try {
      return InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static boolean calibrate(ReferenceRelay relay, Response response, Callback callback) {
    try {
      return reply(
          response, callback, 200, "application/json", relay.recalibrate().toJson() + "\n");
    } catch (SQLException e) {
      return reply(response, callback, 500, "text/plain", "calibration failed: " + e + "\n");
    }
  }

  private static boolean reply(
      Response response, Callback callback, int status, String type, String body) {
    response.setStatus(status);
    response
        .getHeaders()
        .put(HttpHeader.CONTENT_TYPE, type.contains("charset") ? type : type + "; charset=utf-8");
    Content.Sink.write(response, true, body, callback);
    return true;
  }
}
