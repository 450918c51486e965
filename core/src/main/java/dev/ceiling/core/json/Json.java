package dev.ceiling.core.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.PropertyBindingException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.ceiling.core.model.LaterFields;
import dev.ceiling.core.model.SchemaVersion1;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one JSON configuration every Ceiling document uses: snake_case names, strict reading (an
 * unknown field, a missing field, a null primitive or a trailing token is an error), ISO-8601
 * instants, explicit nulls for "not applicable".
 *
 * <p>Thread-safe: the mapper is configured once and never mutated.
 */
public final class Json {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          // "58000" is not a count and 5 is not a name: no silent string <-> scalar coercion.
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .withCoercionConfig(
              LogicalType.Textual,
              c ->
                  c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
          // A derived getter marked @JsonIgnore (HalfRun.isTreatment) must not make its name a
          // silently skipped input field.
          .enable(DeserializationFeature.FAIL_ON_IGNORED_PROPERTIES)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .build();

  private Json() {}

  /** The shared mapper. Do not reconfigure it; use {@code mapper().copy()} for variations. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** Reads a document from a file, naming the file and JSON path in any error. */
  public static <T> T read(Path file, Class<T> type) throws ReportFormatException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ReportFormatException(file.toString(), "$", "cannot read file: " + e, e);
    }
    return read(text, file.toString(), type);
  }

  /** Reads a document from text; {@code source} names it in errors (a file, "stdin", ...). */
  public static <T> T read(String text, String source, Class<T> type) throws ReportFormatException {
    String named = source;
    try {
      JsonNode tree = MAPPER.readTree(text);
      if (tree == null || tree.isMissingNode()) {
        throw new ReportFormatException(source, "$", "not valid JSON: the document is empty", null);
      }
      if (SchemaVersion1.upgrade(tree, type)) {
        named = source + " (read as schema version 1)";
      }
      LaterFields.fill(tree);
      return MAPPER.treeToValue(tree, type);
    } catch (JsonMappingException e) {
      throw new ReportFormatException(named, fieldPath(e), problem(e, type), e);
    } catch (JsonProcessingException e) {
      String nonNumeric = nonNumeric(e);
      if (nonNumeric != null) {
        throw new ReportFormatException(
            source,
            nonNumericPath(e),
            nonNumeric
                + " is not a measurement: a number must be finite (write null where there"
                + " is no value)",
            e);
      }
      String where =
          e.getLocation() == null
              ? ""
              : " at line "
                  + e.getLocation().getLineNr()
                  + ", column "
                  + e.getLocation().getColumnNr();
      throw new ReportFormatException(
          source, "$", "not valid JSON" + where + ": " + e.getOriginalMessage(), e);
    }
  }

  /** "NaN", "Infinity" or "-Infinity" when that token is what the parser refused, else null. */
  private static String nonNumeric(JsonProcessingException e) {
    String msg = e.getOriginalMessage();
    if (msg == null) {
      return null;
    }
    for (String token :
        new String[] {"-Infinity", "+Infinity", "Infinity", "NaN", "+INF", "-INF", "INF"}) {
      if (msg.contains("'" + token + "'")) {
        return token;
      }
    }
    return null;
  }

  /** The JSON path the parser was at: the field whose value was refused. */
  private static String nonNumericPath(JsonProcessingException e) {
    if (e.getProcessor() instanceof com.fasterxml.jackson.core.JsonParser p) {
      StringBuilder sb = new StringBuilder();
      for (var c = p.getParsingContext(); c != null && !c.inRoot(); c = c.getParent()) {
        if (c.inArray()) {
          sb.insert(0, "[" + c.getCurrentIndex() + "]");
        } else if (c.getCurrentName() != null) {
          sb.insert(0, "." + c.getCurrentName());
        }
      }
      return "$" + sb;
    }
    return "$";
  }

  /** Serializes with the shared configuration (pretty-printed, trailing newline). */
  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize " + value.getClass().getName(), e);
    }
  }

  /** One compact line, for JSON-lines journals. */
  public static String writeLine(Object value) {
    try {
      return MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize " + value.getClass().getName(), e);
    }
  }

  /**
   * Writes a document atomically: to a sibling temporary file, then renamed over the target, so a
   * crash never leaves half a report where a whole one was.
   */
  public static void write(Path file, Object value) throws IOException {
    writeText(file, write(value));
  }

  /**
   * Writes text the way {@link #write(Path, Object)} writes JSON: atomically (a sibling temporary
   * file, then a rename) and owner-only ({@code rw-------}, the temporary file's mode from its
   * creation), so a report never shows a half-written state or a secret to other users.
   */
  public static void writeText(Path file, String text) throws IOException {
    Path abs = file.toAbsolutePath();
    Path dir = abs.getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Path tmp = Files.createTempFile(dir, abs.getFileName().toString(), ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      try {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * The JSON path of the offending value. When a record's compact constructor rejects a value, the
   * path Jackson reports is the object's; the rule's message starts with the field it is about
   * ({@code "attempted must be >= 0, got -1"}), so when that leading word names one of the record's
   * fields, the path is extended to it ({@code $.cells[0].attempted}).
   */
  private static String fieldPath(JsonMappingException e) {
    String path = path(e);
    if (e instanceof ValueInstantiationException v
        && v.getCause() != null
        && v.getCause().getMessage() != null
        && v.getType() != null
        && v.getType().getRawClass().isRecord()) {
      String message = v.getCause().getMessage();
      int space = message.indexOf(' ');
      String lead = space < 0 ? message : message.substring(0, space);
      // "counter_deltas.audit_rows" and "rates_per_s[1]" name a field plus an element.
      int end = lead.length();
      for (char stop : new char[] {'.', '['}) {
        int at = lead.indexOf(stop);
        if (at >= 0 && at < end) {
          end = at;
        }
      }
      String field = lead.substring(0, end);
      for (RecordComponent c : v.getType().getRawClass().getRecordComponents()) {
        if (SNAKE.translate(c.getName()).equals(field)) {
          return path + "." + lead;
        }
      }
      // A rule across groups (Cell's ratio checks) names a field of one of the record's groups.
      for (RecordComponent c : v.getType().getRawClass().getRecordComponents()) {
        if (c.getType().isRecord()) {
          for (RecordComponent inner : c.getType().getRecordComponents()) {
            if (SNAKE.translate(inner.getName()).equals(field)) {
              return path + "." + SNAKE.translate(c.getName()) + "." + lead;
            }
          }
        }
      }
    }
    return path;
  }

  private static final Pattern COERCE = Pattern.compile("Cannot coerce (\\w+ value \\(.*\\)) to ");

  private static final PropertyNamingStrategies.NamingBase SNAKE =
      (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

  private static String path(JsonMappingException e) {
    StringBuilder sb = new StringBuilder("$");
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getIndex() >= 0) {
        sb.append('[').append(ref.getIndex()).append(']');
      } else if (ref.getFieldName() != null) {
        sb.append('.').append(ref.getFieldName());
      }
    }
    return sb.toString();
  }

  private static String problem(JsonMappingException e, Class<?> root) {
    if (e instanceof PropertyBindingException u) {
      // Sorted: Jackson's own order depends on its internal maps, and messages are asserted.
      TreeSet<String> known = new TreeSet<>();
      u.getKnownPropertyIds().forEach(id -> known.add(String.valueOf(id)));
      return "unknown field '" + u.getPropertyName() + "'; expected one of " + known;
    }
    if (e instanceof ValueInstantiationException v && v.getCause() != null) {
      // The compact constructor's message states the rule and the value.
      return v.getCause().getMessage();
    }
    if (e instanceof InvalidFormatException f) {
      return "expected " + simple(f.getTargetType()) + ", got " + f.getValue();
    }
    if (e instanceof MismatchedInputException m) {
      String msg = m.getOriginalMessage();
      // Jackson 2.x said "Missing required creator property"; 2.18+ says "Missing creator
      // property".
      if (msg != null
          && (msg.startsWith("Missing required creator property")
              || msg.startsWith("Missing creator property"))) {
        return "missing field; every field must be present (null where not applicable)";
      }
      if (msg != null && msg.startsWith("Cannot map `null` into type")) {
        return "expected " + simple(m.getTargetType()) + ", got null";
      }
      // "Cannot coerce String value ("58000") to `long` value (but might if ...)": keep the
      // value, drop the advice about a setting users cannot change.
      Matcher coerce = COERCE.matcher(msg == null ? "" : msg);
      if (coerce.lookingAt()) {
        return "expected " + simple(m.getTargetType()) + ", got " + coerce.group(1);
      }
      if (m.getTargetType() != null) {
        return "expected " + simple(m.getTargetType()) + ": " + msg;
      }
      return msg;
    }
    return e.getOriginalMessage() + " (reading " + root.getSimpleName() + ")";
  }

  private static String simple(Class<?> type) {
    return type == null ? "a value" : type.getSimpleName();
  }
}
