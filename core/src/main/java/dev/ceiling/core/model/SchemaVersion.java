package dev.ceiling.core.model;

/** The version of every JSON document Ceiling writes; readers refuse any other. */
public final class SchemaVersion {
  public static final int CURRENT = 1;

  private SchemaVersion() {}

  static void check(int version) {
    if (version != CURRENT) {
      throw new IllegalArgumentException("schema_version must be " + CURRENT + ", got " + version);
    }
  }
}
