package dev.ceiling.prom;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One family while the parser assembles it: its declarations, lines and samples so far. */
final class FamilyDraft {
  final String name;
  final int firstLine;
  int lastLine;
  String type; // null until TYPE (or until the first sample makes it untyped)
  int typeLine;
  String help;
  int helpLine;
  final List<Sample> samples = new ArrayList<>();
  int firstSampleLine;
  final Map<String, Integer> seriesLines = new HashMap<>();

  FamilyDraft(String name, int line) {
    this.name = name;
    this.firstLine = line;
    this.lastLine = line;
  }

  String effectiveType() {
    return type == null ? "untyped" : type;
  }

  Set<String> sampleNames() {
    return switch (effectiveType()) {
      case "histogram" -> Set.of(name + "_bucket", name + "_count", name + "_sum");
      case "summary" -> Set.of(name, name + "_count", name + "_sum");
      default -> Set.of(name);
    };
  }

  String sampleNamesText() {
    return switch (effectiveType()) {
      case "histogram" -> name + "_bucket, " + name + "_count or " + name + "_sum";
      case "summary" -> name + ", " + name + "_count or " + name + "_sum";
      default -> name;
    };
  }

  MetricFamily build() {
    return new MetricFamily(name, effectiveType(), help, samples);
  }
}
