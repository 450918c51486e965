package dev.ceiling.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Real events signed by other Nostr implementations (resource nostr/known-events.jsonl): our
 * canonical serialization must reproduce their ids byte for byte and our verifier must accept their
 * signatures. Sources, one per line of the resource:
 *
 * <ol>
 *   <li>kind 1 with a URL in the content: nbd-wtf/go-nostr {@code event_test.go},
 *       TestEventParsingAndVerifying.
 *   <li>kind 3 with three p tags and JSON (quotes) in the content: same go-nostr test.
 *   <li>kind 1 with "ö", four emoji (surrogate pairs in UTF-16) and newlines: an event captured
 *       from a relay, quoted in fulminologylabs/nostar-scrape {@code types/event.py}.
 *   <li>kind 1 with U+2019 (a non-ASCII apostrophe): the fixture of Nostur's NostrEssentials {@code
 *       EventTests.swift}.
 * </ol>
 */
class KnownEventsTest {

  static List<String> lines() throws IOException {
    try (InputStream in = KnownEventsTest.class.getResourceAsStream("/nostr/known-events.jsonl")) {
      assertThat(in).as("resource nostr/known-events.jsonl").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  static List<NostrEvent> events() throws IOException, NostrException {
    List<NostrEvent> out = new ArrayList<>();
    for (String line : lines()) {
      out.add(NostrEvent.fromJson(line));
    }
    return out;
  }

  /** Indices of the known events whose id a given canonical serializer fails to reproduce. */
  static List<Integer> idMismatches(Function<NostrEvent, String> canonical) throws Exception {
    List<Integer> bad = new ArrayList<>();
    List<NostrEvent> all = events();
    for (int i = 0; i < all.size(); i++) {
      NostrEvent e = all.get(i);
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(canonical.apply(e).getBytes(StandardCharsets.UTF_8));
      if (!Hex.encode(digest).equals(e.id())) {
        bad.add(i);
      }
    }
    return bad;
  }

  private static String production(NostrEvent e) {
    return NostrEvent.canonical(e.pubkey(), e.createdAt(), e.kind(), e.tags(), e.content());
  }

  @Test
  void everyKnownEventHasAMatchingIdAndAValidSignature() throws Exception {
    List<NostrEvent> all = events();
    assertThat(all).hasSize(4);
    assertThat(idMismatches(KnownEventsTest::production)).isEmpty();
    for (NostrEvent e : all) {
      assertThat(e.idMatches()).as(e.id()).isTrue();
      assertThat(EventVerifier.verify(e)).as(e.id()).isTrue();
    }
  }

  @Test
  void theCorpusCoversTheCharactersThatMatter() throws Exception {
    String all = String.join("", events().stream().map(NostrEvent::content).toList());
    assertThat(all).contains("/", "\"", "\n", "ö", "\u2019", "\ud83d\ude0e");
  }

  @Test
  void toJsonRoundTripsEveryKnownEvent() throws Exception {
    for (NostrEvent e : events()) {
      assertThat(NostrEvent.fromJson(e.toJson())).isEqualTo(e);
    }
  }

  // --- mutants: plausible serializer bugs that the id check must catch ----------------------

  @Test
  void mutantThatEscapesSlashIsCaught() throws Exception {
    // JSON allows "\/"; some encoders (PHP, older Gson settings) emit it. NIP-01 does not.
    assertThat(idMismatches(e -> production(e).replace("/", "\\/"))).contains(0, 1);
  }

  @Test
  void mutantThatEscapesNonAsciiIsCaught() throws Exception {
    // Jackson's ESCAPE_NON_ASCII, Python's json.dumps default: every char > 0x7e as \\uXXXX.
    assertThat(idMismatches(KnownEventsTest::escapeNonAscii)).containsExactly(2, 3);
  }

  @Test
  void mutantWithSpacesAfterCommasIsCaught() throws Exception {
    // Python's json.dumps default separators (", ", ": ").
    assertThat(idMismatches(e -> production(e).replace("\",\"", "\", \""))).contains(1, 2);
  }

  @Test
  void mutantThatDropsTagsIsCaught() throws Exception {
    assertThat(
            idMismatches(
                e ->
                    NostrEvent.canonical(
                        e.pubkey(), e.createdAt(), e.kind(), List.of(), e.content())))
        .containsExactly(1, 2);
  }

  private static String escapeNonAscii(NostrEvent e) {
    StringBuilder sb = new StringBuilder();
    for (char c : production(e).toCharArray()) {
      if (c > 0x7e) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
