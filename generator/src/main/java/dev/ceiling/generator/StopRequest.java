package dev.ceiling.generator;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A request that a running {@link Generator#run(GeneratorConfig, ProgressListener, StopRequest)}
 * stop early: its senders put on the wire the slots already due and send nothing later, it waits
 * out the grace period for the answers still outstanding, and it reports what was sent and answered
 * with {@link GeneratorReport#incomplete()} set to the reason. A Ctrl-C handler calls {@link
 * #request} from another thread.
 *
 * <p>Thread-safe. The first reason wins; later requests change nothing.
 */
public final class StopRequest {
  private final AtomicReference<String> reason = new AtomicReference<>();

  /**
   * Asks the run to stop.
   *
   * @param why what stopped it, as the report says it ("SIGINT", "SIGTERM"); non-blank
   * @throws IllegalArgumentException when {@code why} is blank
   */
  public void request(String why) {
    if (why == null || why.isBlank()) {
      throw new IllegalArgumentException("a stop needs a reason, got '" + why + "'");
    }
    reason.compareAndSet(null, why);
  }

  /** True once {@link #request} was called. */
  public boolean requested() {
    return reason.get() != null;
  }

  /** The first request's reason, or empty when none was made. */
  public Optional<String> reason() {
    return Optional.ofNullable(reason.get());
  }
}
