package dev.ceiling.generator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ceiling.core.testing.Property;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The streaming OK reader classifies every frame as the tree parse it replaced did: the same id,
 * verdict and message for an OK, and the same "malformed OK" or "invalid JSON" for the rest.
 */
class OkFramePropertyTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int TRIES = 5_000;

  /** The tree parse Conn used for every frame before OkFrame, reduced to OkFrame's answer. */
  static OkFrame tree(String frame) {
    JsonNode n;
    try {
      n = MAPPER.readTree(frame);
    } catch (IOException e) {
      return new OkFrame(OkFrame.Kind.INVALID_JSON, null, false, null);
    }
    if (n == null
        || !n.isArray()
        || n.size() < 1
        || !n.get(0).isTextual()
        || !n.get(0).asText().equals("OK")) {
      return new OkFrame(OkFrame.Kind.NOT_OK, null, false, null);
    }
    if (n.size() < 3 || !n.get(1).isTextual() || !n.get(2).isBoolean()) {
      return new OkFrame(OkFrame.Kind.MALFORMED, null, false, null);
    }
    String msg = n.size() > 3 && n.get(3).isTextual() ? n.get(3).asText() : "";
    return new OkFrame(OkFrame.Kind.OK, n.get(1).asText(), n.get(2).asBoolean(), msg);
  }

  /**
   * A frame the streaming reader passes on (NOT_OK) goes to the same tree parse, so only its
   * agreement that the frame is not an OK matters; everything else must match exactly.
   */
  static void check(Function<String, OkFrame> reader, String frame) {
    OkFrame got = reader.apply(frame);
    OkFrame want = tree(frame);
    if (got.kind() == OkFrame.Kind.NOT_OK) {
      assertThat(want.kind())
          .as("passed on to the tree parse: %s", frame)
          .isIn(OkFrame.Kind.NOT_OK, OkFrame.Kind.INVALID_JSON);
    } else {
      assertThat(got).as("frame %s", frame).isEqualTo(want);
    }
  }

  /** Well-formed OKs, near-OKs and every kind of breakage, from one seeded generator. */
  static String frame(SplittableRandom r) {
    List<String> parts = new ArrayList<>();
    parts.add(
        r.nextInt(8) == 0 ? pick(r, "\"NOTICE\"", "\"ok\"", "1", "null", "\"AUTH\"") : "\"OK\"");
    int more = r.nextInt(6);
    for (int i = 0; i < more; i++) {
      parts.add(
          switch (i) {
            case 0 -> r.nextInt(6) == 0 ? value(r) : "\"" + hex(r) + "\"";
            case 1 -> r.nextInt(6) == 0 ? value(r) : pick(r, "true", "false");
            case 2 ->
                r.nextInt(4) == 0
                    ? value(r)
                    : "\"" + pick(r, "", "blocked: x", "é \\\"q\\\"") + "\"";
            default -> value(r);
          });
    }
    String s = "[" + String.join(r.nextBoolean() ? "," : ", ", parts) + "]";
    return switch (r.nextInt(6)) {
      case 0 -> s.substring(0, r.nextInt(s.length() + 1)); // truncated
      case 1 -> {
        int at = r.nextInt(s.length() + 1);
        yield s.substring(0, at) + pick(r, "{", "}", "]", ",", ":", "\"", "x") + s.substring(at);
      }
      case 2 -> s + pick(r, " ", "]", "xyz", "[1]"); // after the closing bracket
      default -> s;
    };
  }

  private static String value(SplittableRandom r) {
    return pick(
        r,
        "1",
        "-2.5e3",
        "null",
        "true",
        "\"s\"",
        "{}",
        "[]",
        "{\"a\":[1,{\"b\":null}]}",
        "[[\"x\"]]",
        "{\"a\":}",
        "[1,,2]",
        "{\"a\" 1}");
  }

  private static String hex(SplittableRandom r) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 64; i++) {
      b.append(Character.forDigit(r.nextInt(16), 16));
    }
    return b.toString();
  }

  private static String pick(SplittableRandom r, String... choices) {
    return choices[r.nextInt(choices.length)];
  }

  @Test
  void theStreamingReaderAgreesWithTheTreeParseOnEveryFrame() {
    Property.forAll(
        "OkFrame agrees with the tree parse", TRIES, r -> check(OkFrame::read, frame(r)));
  }

  @Test
  void theCasesThatMatterMostAreCoveredByName() {
    for (String f :
        List.of(
            "[\"OK\",\"ab\",true,\"\"]",
            "[\"OK\",\"ab\",false,\"blocked: no\",{\"extra\":[1]}]",
            "[\"OK\",\"ab\",true]",
            "[\"OK\",\"ab\",true,\"m\",{bad",
            "[\"OK\",42,true,\"\"]",
            "[\"OK\",\"ab\"]",
            "[\"OK\",\"ab\",\"true\",\"\"]",
            "[\"OK\",\"ab\",true,7] trailing",
            "{\"OK\":1}",
            "{not json",
            "",
            "[\"NOTICE\",\"x\"]")) {
      check(OkFrame::read, f);
    }
  }

  /**
   * The mutant: a reader that stops once it has the four elements it needs, so JSON broken after
   * them goes unnoticed. The same property must catch it.
   */
  static OkFrame stopsEarly(String frame) {
    try (JsonParser p = new JsonFactory().createParser(frame)) {
      if (p.nextToken() != JsonToken.START_ARRAY
          || p.nextToken() != JsonToken.VALUE_STRING
          || !p.getText().equals("OK")) {
        return new OkFrame(OkFrame.Kind.NOT_OK, null, false, null);
      }
      JsonToken id = p.nextToken();
      String idText = id == JsonToken.VALUE_STRING ? p.getText() : null;
      JsonToken ok = p.nextToken();
      if (idText == null || ok == null || !ok.isBoolean()) {
        return new OkFrame(OkFrame.Kind.MALFORMED, null, false, null);
      }
      JsonToken m = p.nextToken();
      String msg = m == JsonToken.VALUE_STRING ? p.getText() : "";
      return new OkFrame(OkFrame.Kind.OK, idText, ok == JsonToken.VALUE_TRUE, msg);
    } catch (IOException e) {
      return new OkFrame(OkFrame.Kind.INVALID_JSON, null, false, null);
    }
  }

  @Test
  void aReaderThatStopsEarlyIsCaught() {
    assertThatThrownBy(
            () ->
                Property.forAll(
                    "the stop-early mutant agrees",
                    TRIES,
                    r -> check(OkFramePropertyTest::stopsEarly, frame(r))))
        .isInstanceOf(AssertionError.class);
  }
}
