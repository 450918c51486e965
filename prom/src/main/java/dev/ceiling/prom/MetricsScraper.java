package dev.ceiling.prom;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fetches a Prometheus metrics endpoint over HTTP (java.net.http) and parses it strictly.
 *
 * <p>Limits: {@code connectTimeout} bounds the TCP connect; {@code readTimeout} bounds the wait for
 * the response headers (the JDK's request timeout, which stops counting once they arrive); and the
 * whole exchange, body included, is abandoned after {@code connectTimeout + readTimeout}, so a
 * server that trickles its body is cut off too. The body is capped at {@code maxBodyBytes}: a
 * larger {@code Content-Length} is refused before reading, and a body that grows past the cap is
 * cut off at the cap.
 *
 * <p>Thread-safe: one instance may scrape many URLs concurrently.
 */
public final class MetricsScraper {
  /** The media type asked for; endpoints that honour it answer with text format 0.0.4. */
  public static final String ACCEPT = "text/plain;version=0.0.4;q=1.0,*/*;q=0.1";

  private static final int ERROR_BODY_SNIPPET_BYTES = 200;

  private final Duration connectTimeout;
  private final Duration readTimeout;
  private final int maxBodyBytes;
  private final HttpClient client;

  /**
   * @param connectTimeout TCP connect limit, {@code > 0}
   * @param readTimeout limit on waiting for the response headers, {@code > 0}; connect + read
   *     bounds the whole exchange
   * @param maxBodyBytes largest body accepted, {@code >= 1}
   */
  public MetricsScraper(Duration connectTimeout, Duration readTimeout, int maxBodyBytes) {
    Objects.requireNonNull(connectTimeout, "connect_timeout must not be null");
    Objects.requireNonNull(readTimeout, "read_timeout must not be null");
    if (connectTimeout.isNegative() || connectTimeout.isZero()) {
      throw new IllegalArgumentException("connect_timeout must be > 0, got " + connectTimeout);
    }
    if (readTimeout.isNegative() || readTimeout.isZero()) {
      throw new IllegalArgumentException("read_timeout must be > 0, got " + readTimeout);
    }
    if (maxBodyBytes < 1) {
      throw new IllegalArgumentException("max_body_bytes must be >= 1, got " + maxBodyBytes);
    }
    this.connectTimeout = connectTimeout;
    this.readTimeout = readTimeout;
    this.maxBodyBytes = maxBodyBytes;
    this.client =
        HttpClient.newBuilder()
            .connectTimeout(connectTimeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1)
            .build();
  }

  /**
   * Fetches and parses {@code metricsUrl}.
   *
   * @param metricsUrl an {@code http://} or {@code https://} URL
   * @return the snapshot, stamped when the body was complete
   * @throws MetricsException naming the URL and the problem: connect failure, timeout, a status
   *     other than 200, a content type other than text/plain, a body over the cap, a body that is
   *     not UTF-8, or a body that is not valid text format 0.0.4 (with line:column)
   */
  public Snapshot scrape(URI metricsUrl) throws MetricsException {
    Objects.requireNonNull(metricsUrl, "metrics_url must not be null");
    String scheme = metricsUrl.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme)) {
      throw new IllegalArgumentException(
          "metrics_url must be an http:// or https:// URL, got " + metricsUrl);
    }
    HttpRequest request =
        HttpRequest.newBuilder(metricsUrl)
            .timeout(readTimeout)
            .header("Accept", ACCEPT)
            .GET()
            .build();
    String where = metricsUrl + ": ";
    CompletableFuture<HttpResponse<byte[]>> future = client.sendAsync(request, this::bodyHandler);
    HttpResponse<byte[]> response;
    Duration total = connectTimeout.plus(readTimeout);
    try {
      response = future.get(total.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new MetricsException(
          where
              + "no complete response within "
              + describe(total)
              + " (connect timeout + read timeout)",
          e);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new MetricsException(where + "interrupted while scraping", e);
    } catch (ExecutionException e) {
      throw failure(where, e.getCause());
    }
    byte[] body = response.body();
    if (response.statusCode() != 200) {
      throw new MetricsException(
          where
              + "expected HTTP status 200, got "
              + response.statusCode()
              + (body.length == 0 ? "" : " with body '" + snippet(body) + "'"),
          null);
    }
    Optional<String> contentType = response.headers().firstValue("Content-Type");
    if (contentType.isPresent()
        && !contentType.get().toLowerCase(Locale.ROOT).startsWith("text/plain")) {
      throw new MetricsException(
          where
              + "expected Content-Type text/plain (text format 0.0.4), got '"
              + contentType.get()
              + "'",
          null);
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body))
              .toString();
    } catch (CharacterCodingException e) {
      throw new MetricsException(where + "body is not valid UTF-8", e);
    }
    Instant takenAt = Instant.now();
    try {
      return new Snapshot(metricsUrl, takenAt, PrometheusText.parse(text));
    } catch (MetricsException e) {
      throw MetricsException.prefixed(where, e);
    }
  }

  private MetricsException failure(String where, Throwable cause) {
    if (cause instanceof BodyTooLarge) {
      return new MetricsException(where + cause.getMessage(), cause);
    }
    if (cause instanceof HttpTimeoutException) {
      boolean connect = cause instanceof java.net.http.HttpConnectTimeoutException;
      return new MetricsException(
          where
              + (connect
                  ? "no connection within " + describe(connectTimeout) + " (connect timeout)"
                  : "no response within " + describe(readTimeout) + " (read timeout)"),
          cause);
    }
    if (cause instanceof IOException) {
      String m = cause.getMessage();
      return new MetricsException(
          where
              + "fetch failed: "
              + cause.getClass().getSimpleName()
              + (m == null || m.isBlank() ? "" : ": " + m),
          cause);
    }
    return new MetricsException(where + "fetch failed: " + cause, cause);
  }

  private static String describe(Duration d) {
    return d.toMillis() + " ms";
  }

  private static String snippet(byte[] bytes) {
    String s =
        new String(
            bytes, 0, Math.min(bytes.length, ERROR_BODY_SNIPPET_BYTES), StandardCharsets.UTF_8);
    s = s.strip().replace("\n", "\\n").replace("\r", "\\r");
    return bytes.length > ERROR_BODY_SNIPPET_BYTES ? s + "..." : s;
  }

  private HttpResponse.BodySubscriber<byte[]> bodyHandler(HttpResponse.ResponseInfo info) {
    if (info.statusCode() != 200) {
      // Only a snippet is kept for the message; the rest is drained up to the cap.
      return new CappedBody(maxBodyBytes, true);
    }
    long declared = info.headers().firstValueAsLong("Content-Length").orElse(-1L);
    if (declared > maxBodyBytes) {
      return new Refused(
          new BodyTooLarge(
              "body of "
                  + declared
                  + " bytes (Content-Length) exceeds the cap of "
                  + maxBodyBytes
                  + " bytes"));
    }
    return new CappedBody(maxBodyBytes, false);
  }

  private static final class BodyTooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    BodyTooLarge(String message) {
      super(message);
    }
  }

  /** Fails at once without reading, for a declared length over the cap. */
  private static final class Refused implements HttpResponse.BodySubscriber<byte[]> {
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();

    Refused(IOException why) {
      result.completeExceptionally(why);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      subscription.cancel();
    }

    @Override
    public void onNext(List<ByteBuffer> item) {}

    @Override
    public void onError(Throwable throwable) {}

    @Override
    public void onComplete() {}
  }

  /**
   * Collects the body, cancelling the exchange as soon as it passes the cap. With {@code
   * truncateQuietly} (error responses) it keeps what fits and completes normally instead.
   */
  private static final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final int cap;
    private final boolean truncateQuietly;
    private final java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
    private Flow.Subscription subscription;
    private long received;

    CappedBody(int cap, boolean truncateQuietly) {
      this.cap = truncateQuietly ? Math.min(cap, ERROR_BODY_SNIPPET_BYTES + 1) : cap;
      this.truncateQuietly = truncateQuietly;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      this.subscription = s;
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      if (result.isDone()) {
        return;
      }
      for (ByteBuffer item : items) {
        int n = item.remaining();
        received += n;
        if (received > cap) {
          subscription.cancel();
          if (truncateQuietly) {
            int room = (int) (cap - (received - n));
            byte[] part = new byte[room];
            item.get(part);
            buffer.write(part, 0, room);
            result.complete(buffer.toByteArray());
          } else {
            result.completeExceptionally(
                new BodyTooLarge(
                    "body exceeds the cap of " + cap + " bytes (cut off while streaming)"));
          }
          return;
        }
        byte[] bytes = new byte[n];
        item.get(bytes);
        buffer.write(bytes, 0, n);
      }
    }

    @Override
    public void onError(Throwable throwable) {
      result.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
      result.complete(buffer.toByteArray());
    }
  }
}
