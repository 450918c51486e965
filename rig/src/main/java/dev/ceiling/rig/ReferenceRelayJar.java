package dev.ceiling.rig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where the reference relay's executable jar is ({@code ${reference_relay_jar}} in a profile).
 *
 * <p>The reference relay is a program of its own (module {@code reference-relay}, artifact {@code
 * dev.ceiling:ceiling-reference-relay:<version>:all}), so the rig carries none of its classes or
 * dependencies and never guesses a classpath: it is told where the jar is, by the system property
 * {@value #PROPERTY} or else the environment variable {@value #ENV}. The launcher script, the
 * build's tests and the consumer example each set one (docs/EMBEDDING.md).
 */
public final class ReferenceRelayJar {
  /** The system property naming the jar. */
  public static final String PROPERTY = "ceiling.reference-relay.jar";

  /** The environment variable naming the jar, read when the property is unset. */
  public static final String ENV = "CEILING_REFERENCE_RELAY_JAR";

  private ReferenceRelayJar() {}

  /**
   * The jar, as an absolute path.
   *
   * @throws RigException naming the property and the variable when neither is set, or the path when
   *     it is not a readable file
   */
  public static Path locate() throws RigException {
    return locate(
        System.getProperties().entrySet().stream()
            .filter(e -> PROPERTY.equals(e.getKey()))
            .map(e -> String.valueOf(e.getValue()))
            .findFirst(),
        System.getenv());
  }

  static Path locate(Optional<String> property, Map<String, String> env) throws RigException {
    String where = property.filter(s -> !s.isBlank()).orElse(null);
    String source = "system property " + PROPERTY;
    if (where == null) {
      where = env.get(ENV);
      source = "environment variable " + ENV;
    }
    if (where == null || where.isBlank()) {
      throw new RigException(
          RigException.Kind.BAD_INPUT,
          "the reference relay's jar is not known: set the system property "
              + PROPERTY
              + " or the environment variable "
              + ENV
              + " to ceiling-reference-relay-<version>-all.jar (scripts/ceiling sets it;"
              + " docs/EMBEDDING.md shows a build that does)");
    }
    Path jar = Path.of(where).toAbsolutePath().normalize();
    if (!Files.isRegularFile(jar) || !Files.isReadable(jar)) {
      throw new RigException(
          RigException.Kind.BAD_INPUT,
          source
              + " names "
              + jar
              + ", which is not a readable file; build it with `mvn -B install`"
              + " (module reference-relay) or point "
              + PROPERTY
              + " at the released jar");
    }
    return jar;
  }
}
