package dev.ceiling.generator;

import java.time.Duration;
import java.time.Instant;

/**
 * A shared start instant that is chosen only once this process is ready: the parent of N generator
 * processes on one machine learns when each child has pre-signed, connected and warmed up, and only
 * then fixes slot 0 of their common schedule a short lead after the last of them ({@code
 * experiment}'s {@code GeneratorProcesses}). A fixed instant given up front ({@link
 * GeneratorConfig#startAt()}) has to guess how long a loaded machine takes to start a JVM; this
 * does not. Once returned, the instant is used exactly as a fixed one: mapped onto the monotonic
 * clock once and never moved.
 */
public interface StartGate {
  /**
   * The longest {@link #awaitStart()} may block. The connections are open during the wait, so their
   * idle timeout allows for it.
   */
  Duration longestWait();

  /**
   * Called once, when this process is pre-signed, connected and warm: reports that and blocks until
   * the start instant is chosen.
   *
   * @return slot 0's wall-clock instant, shared by every segment
   * @throws GeneratorException (infrastructure) when no instant came within {@link #longestWait()}
   *     or the one that came cannot be read
   */
  Instant awaitStart() throws GeneratorException;
}
