package dev.ceiling.nostr;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A NIP-01 event: {@code {"id", "pubkey", "created_at", "kind", "tags", "content", "sig"}}.
 *
 * <p>The constructor checks shape only: id and pubkey are 64 lowercase hex characters, sig is 128,
 * created_at >= 0, kind in [0, 65535], tags a list of lists of non-null strings (deep-copied,
 * immutable), content non-null. Whether the id matches and the signature verifies is {@link
 * EventVerifier}'s job, so a relay can hold and reject a well-formed but forged event.
 *
 * <p><b>Canonical serialization</b> (the id is its SHA-256): {@code
 * [0,<pubkey>,<created_at>,<kind>,<tags>,<content>]} with no whitespace, UTF-8, and in strings
 * exactly NIP-01's escapes: {@code \n \" \\ \r \t \b \f}. Every other character is written verbatim
 * (non-ASCII as its UTF-8 bytes, {@code /} unescaped), except two cases NIP-01's text does not
 * cover, where we follow what the widely used implementations emit (JavaScript's {@code
 * JSON.stringify} in nostr-tools, go-nostr, serde_json in rust-nostr), so our ids agree with real
 * relays: other control characters U+0000..U+001F become {@code \}{@code u00xx} (lowercase hex),
 * and an unpaired surrogate becomes {@code \}{@code uXXXX} (lowercase hex).
 *
 * <p>Immutable and thread-safe; all static methods are thread-safe.
 */
public record NostrEvent(
    String id,
    String pubkey,
    long createdAt,
    int kind,
    List<List<String>> tags,
    String content,
    String sig) {

  /** Largest kind NIP-01 allows. */
  public static final int MAX_KIND = 65535;

  private static final Set<String> FIELDS =
      Set.of("id", "pubkey", "created_at", "kind", "tags", "content", "sig");

  private static final ObjectMapper PARSER =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();

  // MessageDigest is not thread-safe; one per thread avoids a lookup per event on the hot path.
  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(NostrEvent::newSha256);

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  public NostrEvent {
    List<String> problems = new ArrayList<>();
    if (!Hex.isLowerHex(id, 64)) {
      problems.add("id must be 64 lowercase hex characters, got " + quote(id));
    }
    if (!Hex.isLowerHex(pubkey, 64)) {
      problems.add("pubkey must be 64 lowercase hex characters, got " + quote(pubkey));
    }
    if (createdAt < 0) {
      problems.add("created_at must be >= 0 s, got " + createdAt);
    }
    if (kind < 0 || kind > MAX_KIND) {
      problems.add("kind must be in [0, " + MAX_KIND + "], got " + kind);
    }
    if (tags == null) {
      problems.add("tags must not be null");
    } else {
      for (int i = 0; i < tags.size(); i++) {
        List<String> tag = tags.get(i);
        if (tag == null) {
          problems.add("tags[" + i + "] must not be null");
          continue;
        }
        for (int j = 0; j < tag.size(); j++) {
          if (tag.get(j) == null) {
            problems.add("tags[" + i + "][" + j + "] must not be null");
          }
        }
      }
    }
    if (content == null) {
      problems.add("content must not be null");
    }
    if (!Hex.isLowerHex(sig, 128)) {
      problems.add("sig must be 128 lowercase hex characters, got " + quote(sig));
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("invalid event: " + String.join("; ", problems));
    }
    List<List<String>> copy = new ArrayList<>(tags.size());
    for (List<String> tag : tags) {
      copy.add(List.copyOf(tag));
    }
    tags = List.copyOf(copy);
  }

  /**
   * Parses one event object, strictly: every field present with the right JSON type, no unknown or
   * duplicate field, nothing after the object. All problems are reported in one message.
   *
   * @throws NostrException naming each field that is missing, ill-typed or out of range
   */
  public static NostrEvent fromJson(String json) throws NostrException {
    if (json == null) {
      throw new NostrException("event JSON must not be null");
    }
    JsonNode node;
    try {
      node = PARSER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new NostrException("event is not valid JSON: " + e.getOriginalMessage(), e);
    }
    return fromJsonNode(node);
  }

  /**
   * Reads one event from an already-parsed JSON object (e.g. the third element of {@code ["EVENT",
   * <sub>, <event>]}); same rules as {@link #fromJson(String)}.
   */
  public static NostrEvent fromJsonNode(JsonNode n) throws NostrException {
    if (n == null || n.isMissingNode()) {
      throw new NostrException("event is missing");
    }
    if (!n.isObject()) {
      throw new NostrException("event must be a JSON object, got " + typeOf(n));
    }
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, JsonNode> field : n.properties()) {
      if (!FIELDS.contains(field.getKey())) {
        problems.add("unknown field '" + field.getKey() + "'");
      }
    }
    String id = hexField(n, "id", 64, problems);
    String pubkey = hexField(n, "pubkey", 64, problems);
    long createdAt = integerField(n, "created_at", 0, Long.MAX_VALUE, problems);
    long kind = integerField(n, "kind", 0, MAX_KIND, problems);
    List<List<String>> tags = tagsField(n, problems);
    String content = stringField(n, "content", problems);
    String sig = hexField(n, "sig", 128, problems);
    if (!problems.isEmpty()) {
      throw new NostrException("invalid event: " + String.join("; ", problems));
    }
    try {
      return new NostrEvent(id, pubkey, createdAt, (int) kind, tags, content, sig);
    } catch (IllegalArgumentException e) {
      throw new NostrException(e.getMessage(), e);
    }
  }

  /** The event as a compact JSON object, fields in NIP-01 order, strings escaped as canonical. */
  public String toJson() {
    StringBuilder sb = new StringBuilder(256 + content.length());
    sb.append("{\"id\":\"").append(id);
    sb.append("\",\"pubkey\":\"").append(pubkey);
    sb.append("\",\"created_at\":").append(createdAt);
    sb.append(",\"kind\":").append(kind);
    sb.append(",\"tags\":");
    appendTags(sb, tags);
    sb.append(",\"content\":");
    appendString(sb, content);
    sb.append(",\"sig\":\"").append(sig).append("\"}");
    return sb.toString();
  }

  /** The NIP-01 canonical serialization {@code [0,pubkey,created_at,kind,tags,content]}. */
  public static String canonical(
      String pubkey, long createdAt, int kind, List<List<String>> tags, String content) {
    StringBuilder sb = new StringBuilder(128 + content.length());
    sb.append("[0,");
    appendString(sb, pubkey);
    sb.append(',').append(createdAt).append(',').append(kind).append(',');
    appendTags(sb, tags);
    sb.append(',');
    appendString(sb, content);
    sb.append(']');
    return sb.toString();
  }

  /** The event id: lowercase hex SHA-256 of the UTF-8 canonical serialization. */
  public static String computeId(
      String pubkey, long createdAt, int kind, List<List<String>> tags, String content) {
    return Hex.encode(computeIdBytes(pubkey, createdAt, kind, tags, content));
  }

  /** True if {@link #id()} is the SHA-256 of this event's canonical serialization. */
  public boolean idMatches() {
    return computeId(pubkey, createdAt, kind, tags, content).equals(id);
  }

  static byte[] computeIdBytes(
      String pubkey, long createdAt, int kind, List<List<String>> tags, String content) {
    byte[] utf8 =
        canonical(pubkey, createdAt, kind, tags, content).getBytes(StandardCharsets.UTF_8);
    MessageDigest sha = SHA256.get();
    sha.reset();
    return sha.digest(utf8);
  }

  private static void appendTags(StringBuilder sb, List<List<String>> tags) {
    sb.append('[');
    for (int i = 0; i < tags.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      List<String> tag = tags.get(i);
      sb.append('[');
      for (int j = 0; j < tag.size(); j++) {
        if (j > 0) {
          sb.append(',');
        }
        appendString(sb, tag.get(j));
      }
      sb.append(']');
    }
    sb.append(']');
  }

  /** Appends {@code s} as a JSON string with NIP-01's escaping (see the class comment). */
  static void appendString(StringBuilder sb, String s) {
    sb.append('"');
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20) {
            appendUnicodeEscape(sb, c);
          } else if (Character.isHighSurrogate(c)
              && i + 1 < n
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            sb.append(c).append(s.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            // Unpaired: UTF-8 cannot encode it, so escape it as JSON.stringify does.
            appendUnicodeEscape(sb, c);
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  private static void appendUnicodeEscape(StringBuilder sb, char c) {
    sb.append("\\u")
        .append(HEX[(c >>> 12) & 0xf])
        .append(HEX[(c >>> 8) & 0xf])
        .append(HEX[(c >>> 4) & 0xf])
        .append(HEX[c & 0xf]);
  }

  private static String hexField(JsonNode n, String name, int chars, List<String> problems) {
    String s = stringField(n, name, problems);
    if (s != null && !Hex.isLowerHex(s, chars)) {
      problems.add(
          "field '" + name + "' must be " + chars + " lowercase hex characters, got " + quote(s));
      return null;
    }
    return s;
  }

  private static String stringField(JsonNode n, String name, List<String> problems) {
    JsonNode v = n.get(name);
    if (v == null) {
      problems.add("field '" + name + "' is missing");
      return null;
    }
    if (!v.isTextual()) {
      problems.add("field '" + name + "' must be a string, got " + typeOf(v));
      return null;
    }
    return v.textValue();
  }

  private static long integerField(
      JsonNode n, String name, long min, long max, List<String> problems) {
    JsonNode v = n.get(name);
    if (v == null) {
      problems.add("field '" + name + "' is missing");
      return min;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      problems.add("field '" + name + "' must be an integer, got " + typeOf(v) + " " + clip(v));
      return min;
    }
    long value = v.longValue();
    if (value < min || value > max) {
      problems.add("field '" + name + "' must be in [" + min + ", " + max + "], got " + value);
      return min;
    }
    return value;
  }

  private static List<List<String>> tagsField(JsonNode n, List<String> problems) {
    JsonNode v = n.get("tags");
    if (v == null) {
      problems.add("field 'tags' is missing");
      return List.of();
    }
    if (!v.isArray()) {
      problems.add("field 'tags' must be an array of arrays of strings, got " + typeOf(v));
      return List.of();
    }
    List<List<String>> tags = new ArrayList<>(v.size());
    for (int i = 0; i < v.size(); i++) {
      JsonNode tag = v.get(i);
      if (!tag.isArray()) {
        problems.add("field 'tags[" + i + "]' must be an array of strings, got " + typeOf(tag));
        continue;
      }
      List<String> values = new ArrayList<>(tag.size());
      for (int j = 0; j < tag.size(); j++) {
        JsonNode s = tag.get(j);
        if (!s.isTextual()) {
          problems.add("field 'tags[" + i + "][" + j + "]' must be a string, got " + typeOf(s));
          continue;
        }
        values.add(s.textValue());
      }
      tags.add(values);
    }
    return tags;
  }

  private static String typeOf(JsonNode v) {
    return switch (v.getNodeType()) {
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      default -> v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    };
  }

  private static String clip(JsonNode v) {
    String s = v.toString();
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  private static String quote(String s) {
    if (s == null) {
      return "null";
    }
    String shown = s.length() > 140 ? s.substring(0, 140) + "..." : s;
    return "\"" + shown + "\" (" + s.length() + " characters)";
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
  }
}
