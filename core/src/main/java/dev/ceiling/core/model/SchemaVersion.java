package dev.ceiling.core.model;

/**
 * The version of every JSON document Ceiling writes; readers refuse any other, after {@link
 * SchemaVersion1} has upgraded a version 1 document (version 2 grouped a cell's fields and added
 * the warm-up slots sent).
 */
public final class SchemaVersion {
  public static final int CURRENT = 2;

  private SchemaVersion() {}

  static void check(int version) {
    if (version != CURRENT) {
      throw new IllegalArgumentException("schema_version must be " + CURRENT + ", got " + version);
    }
  }
}
