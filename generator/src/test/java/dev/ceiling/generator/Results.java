package dev.ceiling.generator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.LatencySummary;
import java.util.List;
import java.util.Map;

/**
 * Results built by field name, so no test writes the record's 28 components in order. Names are the
 * report's JSON names; a name the record does not have is an error, and the record's own
 * constructor checks the values as it does for a report read from a file.
 */
final class Results {
  private static final ObjectMapper MAPPER = Json.mapper();

  private Results() {}

  /** Nothing happened: the sum of no parts at 1 event/s over 1 s (zeros, nulls, no latencies). */
  static GeneratorReport.Result nothing() {
    return GeneratorReport.Result.sum(List.of(), List.of(), 1.0, 1.0, LatencySummary::merge);
  }

  /** {@link #nothing()} with the named fields set. */
  static GeneratorReport.Result of(Map<String, ?> fields) {
    return with(nothing(), fields);
  }

  /** {@code r} with the named fields replaced. */
  static GeneratorReport.Result with(GeneratorReport.Result r, Map<String, ?> fields) {
    ObjectNode tree = MAPPER.valueToTree(r);
    fields.forEach(
        (name, value) -> {
          if (!tree.has(name)) {
            throw new IllegalArgumentException("a result has no field " + name);
          }
          tree.set(name, MAPPER.<JsonNode>valueToTree(value));
        });
    try {
      return MAPPER.treeToValue(tree, GeneratorReport.Result.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("not a result: " + e.getOriginalMessage(), e);
    }
  }
}
