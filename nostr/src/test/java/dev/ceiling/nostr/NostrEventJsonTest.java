package dev.ceiling.nostr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Strict reading of one event object: each bad input is named precisely. */
class NostrEventJsonTest {
  private static final String ID =
      "dc90c95f09947507c1044e8f48bcf6350aa6bff1507dd4acfc755b9239b5c962";
  private static final String PK =
      "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d";
  private static final String SIG =
      "230e9d8f0ddaf7eb70b5f7741ccfa37e87a455c9a469282e3464e2052d3192cd"
          + "63a167e196e381ef9d7e69e9ea43af2443b839974dc85d8aaab9efe1d9296524";

  private static String event(String createdAt, String kind, String tags, String content) {
    return "{\"id\":\""
        + ID
        + "\",\"pubkey\":\""
        + PK
        + "\",\"created_at\":"
        + createdAt
        + ",\"kind\":"
        + kind
        + ",\"tags\":"
        + tags
        + ",\"content\":"
        + content
        + ",\"sig\":\""
        + SIG
        + "\"}";
  }

  private static final String GOOD = event("1644271588", "1", "[[\"e\",\"x\"]]", "\"hi\"");

  @Test
  void aWellFormedEventParsesAndWritesBackIdentically() throws NostrException {
    NostrEvent e = NostrEvent.fromJson(GOOD);
    assertThat(e.createdAt()).isEqualTo(1644271588L);
    assertThat(e.kind()).isEqualTo(1);
    assertThat(e.tags()).isEqualTo(List.of(List.of("e", "x")));
    assertThat(e.toJson()).isEqualTo(GOOD);
  }

  @Test
  void fieldOrderInTheInputDoesNotMatter() throws NostrException {
    String reordered =
        "{\"sig\":\""
            + SIG
            + "\",\"content\":\"hi\",\"tags\":[[\"e\",\"x\"]],\"kind\":1,"
            + "\"created_at\":1644271588,\"pubkey\":\""
            + PK
            + "\",\"id\":\""
            + ID
            + "\"}";
    assertThat(NostrEvent.fromJson(reordered)).isEqualTo(NostrEvent.fromJson(GOOD));
  }

  @Test
  void aMissingFieldIsNamed() {
    String noKind = GOOD.replace(",\"kind\":1", "");
    assertThatThrownBy(() -> NostrEvent.fromJson(noKind))
        .isInstanceOf(NostrException.class)
        .hasMessage("invalid event: field 'kind' is missing");
  }

  @Test
  void illTypedFieldsAreNamedAllAtOnce() {
    String bad = event("\"1644271588\"", "1.5", "[[\"e\",7]]", "null");
    assertThatThrownBy(() -> NostrEvent.fromJson(bad))
        .isInstanceOf(NostrException.class)
        .hasMessage(
            "invalid event: field 'created_at' must be an integer, got a string \"1644271588\"; "
                + "field 'kind' must be an integer, got a number 1.5; "
                + "field 'tags[0][1]' must be a string, got a number; "
                + "field 'content' must be a string, got null");
  }

  @Test
  void outOfRangeNumbersAreRejected() {
    assertThatThrownBy(() -> NostrEvent.fromJson(event("-1", "65536", "[]", "\"\"")))
        .hasMessage(
            "invalid event: field 'created_at' must be in [0, 9223372036854775807], got -1; "
                + "field 'kind' must be in [0, 65535], got 65536");
    assertThatThrownBy(() -> NostrEvent.fromJson(event("99999999999999999999", "1", "[]", "\"\"")))
        .hasMessage(
            "invalid event: field 'created_at' must be an integer, got a number"
                + " 99999999999999999999");
  }

  @Test
  void badHexIsRejected() {
    String upper = GOOD.replace(ID, ID.toUpperCase(java.util.Locale.ROOT));
    assertThatThrownBy(() -> NostrEvent.fromJson(upper))
        .hasMessage(
            "invalid event: field 'id' must be 64 lowercase hex characters, got \""
                + ID.toUpperCase(java.util.Locale.ROOT)
                + "\" (64 characters)");
    String shortSig = GOOD.replace(SIG, "abcd");
    assertThatThrownBy(() -> NostrEvent.fromJson(shortSig))
        .hasMessage(
            "invalid event: field 'sig' must be 128 lowercase hex characters, got \"abcd\""
                + " (4 characters)");
  }

  @Test
  void unknownAndDuplicateFieldsAndTrailingTokensAreRejected() {
    assertThatThrownBy(() -> NostrEvent.fromJson(GOOD.replace("{", "{\"extra\":1,")))
        .hasMessage("invalid event: unknown field 'extra'");
    assertThatThrownBy(() -> NostrEvent.fromJson(GOOD.replace("{", "{\"kind\":2,")))
        .hasMessageStartingWith("event is not valid JSON: Duplicate field 'kind'");
    assertThatThrownBy(() -> NostrEvent.fromJson(GOOD + " {}"))
        .hasMessageStartingWith("event is not valid JSON: Trailing token");
  }

  @Test
  void nonObjectsAndBadTagShapesAreRejected() {
    assertThatThrownBy(() -> NostrEvent.fromJson("[1,2]"))
        .hasMessage("event must be a JSON object, got an array");
    assertThatThrownBy(() -> NostrEvent.fromJson(event("1", "1", "{}", "\"\"")))
        .hasMessage(
            "invalid event: field 'tags' must be an array of arrays of strings, got an object");
    assertThatThrownBy(() -> NostrEvent.fromJson(event("1", "1", "[\"e\"]", "\"\"")))
        .hasMessage("invalid event: field 'tags[0]' must be an array of strings, got a string");
    assertThatThrownBy(() -> NostrEvent.fromJson("{"))
        .hasMessageStartingWith("event is not valid JSON: Unexpected end-of-input");
  }

  @Test
  void theConstructorChecksShapeWithRuleAndValue() {
    assertThatThrownBy(() -> new NostrEvent(ID, PK, 1, -3, List.of(), "", SIG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid event: kind must be in [0, 65535], got -3");
    assertThatThrownBy(() -> new NostrEvent("x", PK, -1, 1, null, null, SIG))
        .hasMessage(
            "invalid event: id must be 64 lowercase hex characters, got \"x\" (1 characters); "
                + "created_at must be >= 0 s, got -1; tags must not be null; "
                + "content must not be null");
  }

  @Test
  void tagsAreDeepCopiedAndImmutable() {
    List<String> tag = new java.util.ArrayList<>(List.of("e", "x"));
    List<List<String>> tags = new java.util.ArrayList<>(List.of(tag));
    NostrEvent e = new NostrEvent(ID, PK, 1, 1, tags, "", SIG);
    tag.set(1, "changed");
    tags.clear();
    assertThat(e.tags()).isEqualTo(List.of(List.of("e", "x")));
    assertThatThrownBy(() -> e.tags().get(0).add("y"))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
