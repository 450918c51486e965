package dev.ceiling.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Docs tell the truth about the code: every class a doc names in backticks ({@code Lifecycle},
 * {@code Lifecycle.readyLine}, {@code dev.ceiling.rig.RelayProfile}) is declared by this
 * repository's sources or used by them (imported, or named in full), so a doc cannot go on naming a
 * class that moved, was renamed or was never written, nor claim a library class the code does not
 * use. java.lang names count as used.
 */
class DocsNameClassesTest {
  static final Path ROOT = Path.of("..");

  /** Names that are not Java classes of ours or our libraries', each with why it may appear. */
  static final Map<String, String> NOT_JAVA =
      Map.of(
          "NaN", "a Prometheus sample value",
          "Inf", "a Prometheus sample value",
          "Infinity", "a JSON/Java number spelling",
          "BroadcastPlugin", "@nostr-relay/core's plugin interface (Node, third party)",
          "EventService", "@nostr-relay/core's event service (Node, third party)",
          "Atomics", "JavaScript's Atomics.wait in the nostr-relay-js profile",
          "TextPrometheusMetricDataParser", "hawkular's parser, named as the library we rejected");

  private static final Pattern TICKED = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern CLASS_TOKEN =
      Pattern.compile("(?:[a-z]\\w*\\.)*([A-Z][a-z]\\w*)(?:[.#]\\w+(?:\\(\\))?)*(?:\\(\\))?");
  private static final Pattern DECLARED =
      Pattern.compile("\\b(?:class|record|enum|interface)\\s+([A-Z]\\w*)");
  private static final Pattern QUALIFIED = Pattern.compile("\\b(?:[a-z]\\w*\\.)+([A-Z]\\w*)\\b");

  @Test
  void everyClassTheDocsNameExists() throws IOException {
    Set<String> known = namesInSources();
    List<String> problems = new ArrayList<>();
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> s = Files.walk(ROOT.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md"))
          .filter(p -> !p.toString().contains("node_modules"))
          .forEach(docs::add);
    }
    for (Path doc : docs) {
      problems.addAll(unknownNames(ROOT.relativize(doc).toString(), read(doc), known));
    }
    assertThat(problems).as("classes named in docs that no source declares or uses").isEmpty();
  }

  /** The partner: a doc line naming a class nobody wrote is reported, with its file and line. */
  @Test
  void aNameNoSourceDeclaresIsReported() throws IOException {
    Set<String> known = namesInSources();
    String doc = "The rig's `Lifecycle` calls `NoSuchPlannerAnywhere.plan()` first.\n";
    assertThat(unknownNames("docs/X.md", doc, known))
        .containsExactly("docs/X.md:1 names `NoSuchPlannerAnywhere.plan()`");
    assertThat(unknownNames("docs/X.md", "`Lifecycle` and `java.util.List`, `NaN`", known))
        .isEmpty();
  }

  static List<String> unknownNames(String file, String text, Set<String> known) {
    List<String> out = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      Matcher m = TICKED.matcher(lines[i]);
      while (m.find()) {
        Matcher c = CLASS_TOKEN.matcher(m.group(1));
        if (c.matches() && !isKnown(c.group(1), known)) {
          out.add(file + ":" + (i + 1) + " names `" + m.group(1) + "`");
        }
      }
    }
    return out;
  }

  private static boolean isKnown(String name, Set<String> known) {
    if (known.contains(name) || NOT_JAVA.containsKey(name)) {
      return true;
    }
    try {
      Class.forName("java.lang." + name);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** Every type the sources declare, and every type they name in full or import. */
  static Set<String> namesInSources() throws IOException {
    Set<String> names = new HashSet<>();
    try (Stream<Path> s = Files.walk(ROOT)) {
      List<Path> sources =
          s.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".js"))
              .filter(p -> !p.toString().contains("node_modules"))
              .filter(p -> !p.toString().contains("/target/"))
              .toList();
      for (Path p : sources) {
        String text = read(p);
        String file = p.getFileName().toString();
        names.add(file.substring(0, file.lastIndexOf('.')));
        DECLARED.matcher(text).results().forEach(r -> names.add(r.group(1)));
        QUALIFIED.matcher(text).results().forEach(r -> names.add(r.group(1)));
      }
    }
    return names;
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(p.toString(), e);
    }
  }
}
