package dev.ceiling.experiment;

/** The experiment could not be configured or started; the message says what was wrong. */
public final class ExperimentException extends Exception {
  private static final long serialVersionUID = 1L;

  public ExperimentException(String message, Throwable cause) {
    super(message, cause);
  }
}
