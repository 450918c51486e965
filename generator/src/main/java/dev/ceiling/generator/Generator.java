package dev.ceiling.generator;

import dev.ceiling.generator.internal.Engine;
import dev.ceiling.generator.internal.RunStrategies;

/**
 * The open-loop paced NIP-01 publisher. One call runs one cell: pre-sign every event, connect every
 * connection, start one clock for all targets, send each slot at its absolute due time whatever the
 * relay does, wait up to the grace period after the last send for outstanding OKs, and report.
 */
public final class Generator {
  private Generator() {}

  /**
   * Runs {@code cfg} to completion. Blocks for about pre-signing + connecting + duration + (at
   * most) the grace period. Thread-safe: independent runs may proceed concurrently.
   *
   * @param progress receives progress lines on the calling thread; {@link ProgressListener#NONE} to
   *     discard
   * @return the report, also when the relay misbehaved (its misbehaviour is counted in it)
   * @throws GeneratorException when the run could not start: a connection failed before the clock,
   *     signing failed, or the schedule is too large; the message names the target, URL and Host
   *     header
   */
  public static GeneratorReport run(GeneratorConfig cfg, ProgressListener progress)
      throws GeneratorException {
    return Engine.run(cfg, progress, RunStrategies.PRODUCTION, new StopRequest());
  }

  /**
   * Runs {@code cfg} until it completes or {@code stop} is requested, whichever is first. A stopped
   * run puts on the wire the slots already due, sends none later, waits out the grace period for
   * the answers outstanding and returns a report marked {@link GeneratorReport#incomplete()} with
   * everything sent and answered by then. A request before the clock starts gives a report with
   * nothing sent.
   *
   * @param stop the request another thread (a Ctrl-C handler) makes
   * @throws GeneratorException as {@link #run(GeneratorConfig, ProgressListener)}
   */
  public static GeneratorReport run(
      GeneratorConfig cfg, ProgressListener progress, StopRequest stop) throws GeneratorException {
    return Engine.run(cfg, progress, RunStrategies.PRODUCTION, stop);
  }

  /**
   * Runs {@code cfg} (which must have no {@link GeneratorConfig#startAt()}) from a start instant
   * {@code gate} gives once this process is pre-signed, connected and warm; see {@link StartGate}.
   *
   * @throws GeneratorException as {@link #run(GeneratorConfig, ProgressListener)}, and when the
   *     gate gives no usable instant or one that leaves less than {@link StartInstant#MIN_LEAD}
   * @throws IllegalArgumentException when {@code cfg} has a start instant of its own
   */
  public static GeneratorReport run(GeneratorConfig cfg, ProgressListener progress, StartGate gate)
      throws GeneratorException {
    return Engine.run(cfg, progress, RunStrategies.PRODUCTION, new StopRequest(), gate);
  }
}
