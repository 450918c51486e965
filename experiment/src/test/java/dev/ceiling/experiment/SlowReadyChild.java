package dev.ceiling.experiment;

import dev.ceiling.experiment.internal.GeneratorChild;
import java.time.Duration;

/**
 * A stand-in generator child for {@link StartHandshakeIT}: the real child, held back {@link
 * #HOLD_BACK} first, as a JVM that a loaded machine starts late. Longer than the 15 s fixed lead
 * the parent used to give its children before it waited for them.
 */
public final class SlowReadyChild {
  static final Duration HOLD_BACK = Duration.ofSeconds(20);

  private SlowReadyChild() {}

  public static void main(String[] args) throws InterruptedException {
    System.err.println("stand-in: holding back " + HOLD_BACK.toSeconds() + " s");
    System.err.flush();
    Thread.sleep(HOLD_BACK.toMillis());
    GeneratorChild.main(args);
  }
}
