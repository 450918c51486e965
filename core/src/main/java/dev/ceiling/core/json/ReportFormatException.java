package dev.ceiling.core.json;

/**
 * A JSON document (report, profile, descriptor, journal line) could not be read: names the source,
 * the JSON path and what was expected, so a user never needs the stack trace.
 */
public final class ReportFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final String jsonPath;

  public ReportFormatException(String source, String jsonPath, String problem, Throwable cause) {
    super(source + ": " + jsonPath + ": " + problem, cause);
    this.source = source;
    this.jsonPath = jsonPath;
  }

  /** The file or stream name the document came from. */
  public String source() {
    return source;
  }

  /** The JSON path of the offending value, e.g. {@code $.cells[3].accepted}; "$" for the root. */
  public String jsonPath() {
    return jsonPath;
  }
}
