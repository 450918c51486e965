package dev.ceiling.cli.command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A command's files, checked before anything runs: no output may be an input or another output
 * (compared by real path, so {@code ./r.json}, a symbolic link and a hard link to it are all the
 * same file), and every output's nearest existing ancestor must be a directory. Otherwise a report
 * would replace the half-run it was made from, or a half-run the journal a resume needs.
 */
final class OutputPaths {
  private final Map<String, Path> inputs = new LinkedHashMap<>();
  private final Map<String, Path> outputs = new LinkedHashMap<>();

  /** An input file named by {@code option} (an option or a parameter label); null is skipped. */
  OutputPaths input(String option, Path file) {
    if (file != null) {
      inputs.put(option, file);
    }
    return this;
  }

  /** An output file named by {@code option}; null (not asked for) is skipped. */
  OutputPaths output(String option, Path file) {
    if (file != null) {
      outputs.put(option, file);
    }
    return this;
  }

  /** Every problem, each naming its option and file; empty when the files are safe to write. */
  List<String> problems() {
    List<String> p = new ArrayList<>();
    List<Map.Entry<String, Path>> seen = new ArrayList<>(inputs.entrySet());
    for (Map.Entry<String, Path> out : outputs.entrySet()) {
      parentProblem(out.getKey(), out.getValue()).ifPresent(p::add);
      for (Map.Entry<String, Path> other : seen) {
        if (same(out.getValue(), other.getValue())) {
          p.add(
              out.getKey()
                  + " "
                  + out.getValue()
                  + " is the same file as "
                  + other.getKey()
                  + " "
                  + other.getValue()
                  + ": an output must not overwrite "
                  + (inputs.containsKey(other.getKey()) ? "an input" : "another output"));
        }
      }
      seen.add(out);
    }
    return p;
  }

  private static java.util.Optional<String> parentProblem(String option, Path file) {
    Path abs = file.toAbsolutePath().normalize();
    for (Path a = abs.getParent(); a != null; a = a.getParent()) {
      if (Files.exists(a)) {
        return Files.isDirectory(a)
            ? java.util.Optional.empty()
            : java.util.Optional.of(option + " " + file + ": parent " + a + " is not a directory");
      }
    }
    return java.util.Optional.empty();
  }

  /** True when both name one file: by real path, or by file identity when both exist. */
  static boolean same(Path a, Path b) {
    try {
      if (Files.exists(a) && Files.exists(b)) {
        return Files.isSameFile(a, b);
      }
    } catch (IOException e) {
      // Fall through to the path comparison.
    }
    return real(a).equals(real(b));
  }

  /**
   * The real path of a file that may not exist yet: its nearest existing ancestor resolved through
   * links, then the rest of the path.
   */
  static Path real(Path p) {
    Path abs = p.toAbsolutePath().normalize();
    if (Files.exists(abs)) {
      try {
        return abs.toRealPath();
      } catch (IOException e) {
        return abs;
      }
    }
    Path parent = abs.getParent();
    return parent == null ? abs : real(parent).resolve(abs.getFileName());
  }
}
