package dev.ceiling.rig;

/**
 * The classpath for a child JVM that runs the reference relay ({@code ${classpath}} in a profile).
 * One seam so the launcher does not care how it is computed.
 */
final class RelayClasspath {
  private RelayClasspath() {}

  static String forChild() {
    return System.getProperty("java.class.path");
  }
}
