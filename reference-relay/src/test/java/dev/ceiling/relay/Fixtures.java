package dev.ceiling.relay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.nostr.EventSigner;
import dev.ceiling.nostr.Keys;
import dev.ceiling.nostr.NostrEvent;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Shared helpers for the reference relay tests. */
final class Fixtures {
  private static final AtomicLong CONTENT = new AtomicLong();
  static final Duration WAIT = Duration.ofSeconds(10);

  private Fixtures() {}

  /** Config from flags, with a short calibration so tests start fast. */
  static ReferenceRelayConfig config(String... flags) {
    List<String> all = new ArrayList<>(List.of("--calibration-runs", "20"));
    all.addAll(List.of(flags));
    return ReferenceRelayConfig.fromArgs(all.toArray(String[]::new));
  }

  static NostrEvent event(Keys keys) {
    return EventSigner.sign(
        keys,
        1_700_000_000L,
        1,
        List.of(List.of("t", "ceiling")),
        "hello " + CONTENT.incrementAndGet());
  }

  static String frame(NostrEvent e) {
    return "[\"EVENT\"," + e.toJson() + "]";
  }

  /** The same event with one signature hex digit flipped. */
  static String badSignatureFrame(NostrEvent e) {
    char c = e.sig().charAt(10) == '0' ? '1' : '0';
    String sig = e.sig().substring(0, 10) + c + e.sig().substring(11);
    NostrEvent forged =
        new NostrEvent(e.id(), e.pubkey(), e.createdAt(), e.kind(), e.tags(), e.content(), sig);
    return frame(forged);
  }

  /** Checks a frame is ["OK", id, accepted, message starting with prefix]; throws otherwise. */
  static void expectOk(JsonNode f, String id, boolean accepted, String prefix) {
    if (!(f.isArray()
        && f.size() == 4
        && f.get(0).asText().equals("OK")
        && f.get(1).asText().equals(id)
        && f.get(2).isBoolean()
        && f.get(2).asBoolean() == accepted
        && f.get(3).asText().startsWith(prefix))) {
      throw new AssertionError(
          "expected [\"OK\",\"" + id + "\"," + accepted + ",\"" + prefix + "...\"], got " + f);
    }
  }

  /** Checks a frame is a NOTICE that does not mention {@code id}; throws otherwise. */
  static void expectNoticeWithoutId(JsonNode f, String id) {
    if (!(f.isArray() && f.size() == 2 && f.get(0).asText().equals("NOTICE"))) {
      throw new AssertionError("expected a NOTICE, got " + f);
    }
    if (f.get(1).asText().contains(id)) {
      throw new AssertionError("NOTICE must not carry the event id, got " + f);
    }
  }

  static String get(int port, String path) throws IOException, InterruptedException {
    HttpClient c = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> r =
        c.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new AssertionError("GET " + path + " -> " + r.statusCode() + ": " + r.body());
    }
    return r.body();
  }

  /**
   * The value of the sample whose name-and-labels text is exactly {@code series} (e.g. {@code
   * refrelay_ok_dropped_total} or {@code refrelay_events_accepted_total{community="a.localhost"}}).
   */
  static double metric(String scrape, String series) {
    for (String line : scrape.split("\n", -1)) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim().split(" ", -1)[0]);
      }
    }
    throw new AssertionError("no sample " + series + " in:\n" + scrape);
  }

  static double metric(ReferenceRelay relay, String series) {
    return metric(relay.scrapeMetrics(), series);
  }
}
