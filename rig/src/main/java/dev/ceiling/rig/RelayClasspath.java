package dev.ceiling.rig;

import dev.ceiling.rig.reference.ChildClasspath;

/**
 * The classpath for a child JVM that runs the reference relay ({@code ${classpath}} in a profile).
 * One seam so the launcher does not care how it is computed: {@link ChildClasspath} handles
 * surefire, packaged jars and {@code mvn exec:java}.
 */
final class RelayClasspath {
  private RelayClasspath() {}

  static String forChild() {
    return ChildClasspath.classpath();
  }
}
