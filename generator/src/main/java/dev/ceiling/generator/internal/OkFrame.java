package dev.ceiling.generator.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Reads a relay frame that may be {@code ["OK", id, accepted, message]} with Jackson's streaming
 * parser, without building a tree: the generator reads one OK per event, on the thread that reads
 * the socket, so the cost per frame is on the clock. Anything that is not an OK is left to {@link
 * Conn}'s tree parse ({@link Kind#NOT_OK}), which reads the rare NOTICE, AUTH and garbage.
 *
 * <p>It classifies every frame exactly as the tree parse did (the property test compares them):
 * broken JSON anywhere in the array is {@link Kind#INVALID_JSON}, even after a well-formed head; an
 * OK whose id is not a string or whose third element is not a boolean is {@link Kind#MALFORMED}; a
 * missing or non-string message reads as "". Content after the closing bracket is ignored, as
 * {@code ObjectMapper.readTree} ignores it.
 */
record OkFrame(Kind kind, String id, boolean accepted, String message) {
  enum Kind {
    OK,
    MALFORMED,
    INVALID_JSON,
    NOT_OK
  }

  private static final JsonFactory JSON = new JsonFactory();
  private static final OkFrame NOT_OK = new OkFrame(Kind.NOT_OK, null, false, null);
  private static final OkFrame MALFORMED = new OkFrame(Kind.MALFORMED, null, false, null);
  private static final OkFrame INVALID = new OkFrame(Kind.INVALID_JSON, null, false, null);

  static OkFrame read(String frame) {
    try (JsonParser p = JSON.createParser(frame)) {
      if (p.nextToken() != JsonToken.START_ARRAY
          || p.nextToken() != JsonToken.VALUE_STRING
          || !"OK".equals(p.getText())) {
        return NOT_OK;
      }
      String id = null;
      Boolean accepted = null;
      String message = "";
      int index = 1;
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken(), index++) {
        if (t == null) {
          return INVALID; // the array never closed
        }
        if (index == 1 && t == JsonToken.VALUE_STRING) {
          id = p.getText();
        } else if (index == 2 && t.isBoolean()) {
          accepted = t == JsonToken.VALUE_TRUE;
        } else if (index == 3 && t == JsonToken.VALUE_STRING) {
          message = p.getText();
        }
        // Nested values are read through, so broken JSON inside them is still found.
        p.skipChildren();
      }
      return id == null || accepted == null
          ? MALFORMED
          : new OkFrame(Kind.OK, id, accepted, message);
    } catch (IOException e) {
      return INVALID;
    }
  }
}
