package dev.ceiling.core.model;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * One community the generator publishes into: where to connect and what each event carries.
 *
 * @param community the community's name, used to label results (non-blank)
 * @param url the WebSocket URL, {@code ws://} or {@code wss://}
 * @param hostHeader the Host header to send on the upgrade request, or {@code null} for the URL's
 *     own host; lets communities resolved by Host ({@code a.localhost:PORT}) be reached through
 *     {@code ws://127.0.0.1:PORT} without DNS
 * @param tags tags put on every event, e.g. {@code [["h", "bench"]]}; each tag has at least a name
 * @param kind the Nostr event kind, 0 to 65535
 * @param contentBytes the content is padded to this many bytes, 0 to 1,048,576
 */
public record Target(
    String community,
    String url,
    String hostHeader,
    List<List<String>> tags,
    int kind,
    int contentBytes) {

  public static final int MAX_CONTENT_BYTES = 1 << 20;

  /**
   * The least content a target that is offered load may carry: the generator writes a per-run nonce
   * and the slot number before the padding, so every event of every run has its own id (relays drop
   * duplicate ids, and a repeat rejected as "duplicate:" would read as a ceiling).
   */
  public static final int MIN_LOAD_CONTENT_BYTES = 32;

  /**
   * What a profile's target carries when it names no content_bytes: the built-in profiles' size.
   */
  public static final int DEFAULT_LOAD_CONTENT_BYTES = 64;

  public Target {
    Checks checks = new Checks();
    checks.notBlank("community", community);
    checks.notBlank("url", url);
    if (url != null && !isWebSocketUrl(url)) {
      checks.add("url must be a ws:// or wss:// URL, got " + url);
    }
    if (hostHeader != null && hostHeader.isBlank()) {
      checks.add("host_header must be null or non-blank, got '" + hostHeader + "'");
    }
    Objects.requireNonNull(tags, "tags must not be null (use [])");
    tags = tags.stream().map(List::copyOf).toList();
    for (List<String> tag : tags) {
      if (tag.isEmpty() || tag.get(0).isEmpty()) {
        checks.add("every tag needs a non-empty name, got " + tag);
      }
    }
    if (kind < 0 || kind > 65535) {
      checks.add("kind must be in [0, 65535], got " + kind);
    }
    if (contentBytes < 0 || contentBytes > MAX_CONTENT_BYTES) {
      checks.add("content_bytes must be in [0, " + MAX_CONTENT_BYTES + "], got " + contentBytes);
    }
    checks.orThrow();
  }

  private static boolean isWebSocketUrl(String url) {
    try {
      URI uri = new URI(url);
      return ("ws".equals(uri.getScheme()) || "wss".equals(uri.getScheme()))
          && uri.getHost() != null;
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }

  /** The host this target's events are attributed to: the Host header if set, else the URL's. */
  public String effectiveHost() {
    if (hostHeader != null) {
      return hostHeader;
    }
    URI uri = URI.create(url);
    return uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
  }
}
