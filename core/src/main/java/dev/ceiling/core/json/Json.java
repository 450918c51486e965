package dev.ceiling.core.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

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
    try {
      return MAPPER.readValue(text, type);
    } catch (JsonMappingException e) {
      throw new ReportFormatException(source, path(e), problem(e, type), e);
    } catch (JsonProcessingException e) {
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
    Path abs = file.toAbsolutePath();
    Path dir = abs.getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Path tmp = Files.createTempFile(dir, abs.getFileName().toString(), ".tmp");
    try {
      Files.writeString(tmp, write(value), StandardCharsets.UTF_8);
      try {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

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
    if (e instanceof UnrecognizedPropertyException u) {
      return "unknown field '"
          + u.getPropertyName()
          + "'; expected one of "
          + u.getKnownPropertyIds();
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
      if (msg != null && msg.startsWith("Missing required creator property")) {
        return "missing field; every field must be present (null where not applicable)";
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
