package dev.ceiling.experiment;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A stand-in generator child for {@link StartHandshakeIT} that never says it is ready: it says so
 * on stderr (its last line, which the parent's error quotes) and waits for its parent to go.
 */
public final class NeverReadyChild {
  static final String LINE = "stand-in: never ready";

  private NeverReadyChild() {}

  public static void main(String[] args) throws IOException {
    System.err.println(LINE);
    System.err.flush();
    System.in.transferTo(OutputStream.nullOutputStream());
    System.exit(4);
  }
}
