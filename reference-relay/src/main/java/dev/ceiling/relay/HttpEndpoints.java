package dev.ceiling.relay;

import java.sql.SQLException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** The reference relay's HTTP endpoints: GET /health, /metrics, /calibrate. */
final class HttpEndpoints extends Handler.Abstract {
  private final ReferenceRelay.Holder holder;

  HttpEndpoints(ReferenceRelay.Holder holder) {
    this.holder = holder;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    ReferenceRelay relay = holder.relay;
    String path = Request.getPathInContext(request);
    if (!"GET".equals(request.getMethod())) {
      return reply(
          response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, "text/plain", "GET only\n");
    }
    if (relay == null) {
      return reply(response, callback, 503, "text/plain", "starting\n");
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
