package dev.ceiling.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ceiling.core.testing.Property;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** NIP-01's canonical serialization, character by character. */
class CanonicalTest {
  private static final String PK =
      "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d";

  private static String content(String s) {
    String c = NostrEvent.canonical(PK, 1, 1, List.of(), s);
    String prefix = "[0,\"" + PK + "\",1,1,[],";
    assertThat(c).startsWith(prefix).endsWith("]");
    return c.substring(prefix.length(), c.length() - 1);
  }

  @Test
  void theShapeIsExactlyNip01() {
    assertThat(
            NostrEvent.canonical(
                PK, 1644271588L, 1, List.of(List.of("h", "chan"), List.of("p", "x", "")), "hi"))
        .isEqualTo("[0,\"" + PK + "\",1644271588,1,[[\"h\",\"chan\"],[\"p\",\"x\",\"\"]],\"hi\"]");
  }

  @Test
  void theSevenNip01EscapesAreApplied() {
    assertThat(content("a\nb")).isEqualTo("\"a\\nb\"");
    assertThat(content("a\"b")).isEqualTo("\"a\\\"b\"");
    assertThat(content("a\\b")).isEqualTo("\"a\\\\b\"");
    assertThat(content("a\rb")).isEqualTo("\"a\\rb\"");
    assertThat(content("a\tb")).isEqualTo("\"a\\tb\"");
    assertThat(content("a\bb")).isEqualTo("\"a\\bb\"");
    assertThat(content("a\fb")).isEqualTo("\"a\\fb\"");
  }

  @Test
  void everythingElsePrintableIsVerbatim() {
    String verbatim =
        "/ <>&'`~ \u007f é ö ß \u2019 中文 \u00a0 \u2028 \u2029 \ud83d\ude0e \ud83e\udd19";
    assertThat(content(verbatim)).isEqualTo("\"" + verbatim + "\"");
    assertThat(content("\ud83d\ude0e").getBytes(StandardCharsets.UTF_8))
        .containsExactly('"', 0xf0, 0x9f, 0x98, 0x8e, '"');
  }

  @Test
  void otherControlCharactersAndLoneSurrogatesUseLowercaseUnicodeEscapes() {
    // NIP-01's text does not list them; this is what JSON.stringify, go-nostr and serde_json emit.
    assertThat(content("\u0000\u0001\u001f\u000b")).isEqualTo("\"\\u0000\\u0001\\u001f\\u000b\"");
    assertThat(content("x\ud800y\udc00")).isEqualTo("\"x\\ud800y\\udc00\"");
  }

  @Test
  void tagValuesAreEscapedLikeContent() {
    assertThat(NostrEvent.canonical(PK, 0, 0, List.of(List.of("t", "a\"\n/")), ""))
        .isEqualTo("[0,\"" + PK + "\",0,0,[[\"t\",\"a\\\"\\n/\"]],\"\"]");
  }

  /**
   * Oracle: for strings without the two cases NIP-01 leaves open (other C0 controls, lone
   * surrogates), Jackson's compact writer produces the canonical form too.
   */
  @Test
  void agreesWithJacksonOnWellFormedStrings() {
    ObjectMapper jackson = new ObjectMapper();
    Property.forAll(
        "canonical == Jackson",
        500,
        rnd -> {
          String s = randomText(rnd, 40);
          List<List<String>> tags = List.of(List.of("t", randomText(rnd, 5)));
          assertThat(NostrEvent.canonical(PK, 7, 1, tags, s))
              .isEqualTo(jacksonCanonical(jackson, PK, 7, 1, tags, s));
        });
  }

  @Test
  void mutantSerializerIsCaughtByTheJacksonOracle() {
    // The same property with a serializer that forgets to escape tabs must fail.
    ObjectMapper jackson = new ObjectMapper();
    UnaryOperator<String> mutant = c -> c.replace("\\t", "\t");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                Property.forAll(
                    "mutant == Jackson",
                    500,
                    rnd -> {
                      String s = randomText(rnd, 40) + "\t";
                      assertThat(mutant.apply(NostrEvent.canonical(PK, 7, 1, List.of(), s)))
                          .isEqualTo(jacksonCanonical(jackson, PK, 7, 1, List.of(), s));
                    }))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("property 'mutant == Jackson' failed on try 0");
  }

  private static String jacksonCanonical(
      ObjectMapper jackson,
      String pk,
      long createdAt,
      int kind,
      List<List<String>> tags,
      String content) {
    try {
      return jackson.writeValueAsString(List.of(0, pk, createdAt, kind, tags, content));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Random text mixing the escapes, ASCII, Latin-1, CJK and astral-plane emoji. */
  static String randomText(SplittableRandom rnd, int maxLength) {
    String[] pool = {
      "\n",
      "\"",
      "\\",
      "\r",
      "\t",
      "\b",
      "\f",
      "/",
      "a",
      "Z",
      "0",
      " ",
      "é",
      "ö",
      "中",
      "\u2019",
      "\u2028",
      "\ud83d\ude0e",
      "\ud83e\udd19",
      "\u007f",
      "{",
      "]",
      ","
    };
    int n = rnd.nextInt(maxLength + 1);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(pool[rnd.nextInt(pool.length)]);
    }
    return sb.toString();
  }
}
