package dev.ceiling.experiment;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.net.Redaction;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.prom.MetricsException;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What every round shares: a fresh output file that a new round never overwrites, the one cell loop
 * ("stop? measure, rewrite the file"), and for the one-relay rounds (split, identities) the relay
 * up with the path on for the round and down after it whatever happened, Ctrl-C turned into "stop
 * after the running cell".
 */
final class Rounds {
  private Rounds() {}

  /**
   * Runs one round: makes its output directory and fresh report file, starts the profile's
   * treatment arm (state reset, the round's relay overrides applied) under {@code outDir/rig}, runs
   * {@code body} on the relay's descriptor and the file, and stops the relay; a relay that did not
   * start is an infrastructure failure. With the round's shutdown hook, Ctrl-C requests {@code
   * stop} and, past the grace, stops the relay the signal holds.
   *
   * @param file the report's name in the output directory
   * @param round the round's name, for the refusal of an existing file
   * @param sweep the round's sweep, told the relay's proxied links so each cell records their
   *     health
   * @throws ExperimentException when the directory cannot be made or the file already exists
   */
  static <R> RoundResult<R> run(
      RoundBuilder<?> o,
      String file,
      String round,
      ArmSweep sweep,
      StopSignal stop,
      BiFunction<RigDescriptor, Path, RoundResult<R>> body)
      throws ExperimentException {
    Path report = freshFile(o.outDirOrNew(), file, round);
    UpOptions up =
        UpOptions.of(o.profile, o.profile.treatmentArm(), o.outDir.resolve("rig"))
            .withReset(true)
            .withOverrides(o.relayOverrides);
    ShutdownHook h = o.installShutdownHook ? hook(stop) : ShutdownHook.none();
    try {
      return withRelay(
          up,
          stop,
          o.progress,
          handle -> {
            sweep.watchLinks(handle.proxies());
            return body.apply(handle.descriptor(), report);
          },
          problem -> RoundResult.failed(Outcome.INFRASTRUCTURE, problem));
    } finally {
      h.close();
    }
  }

  /**
   * The shutdown hook every round installs, the A/B included: a signal requests {@code stop} (no
   * new cell, arm or link; the running loop interrupted) and, past {@code grace}, stops whichever
   * relay the signal holds (this process owns the proxies a relay talks through, so the relay must
   * not outlive it).
   */
  static ShutdownHook hook(StopSignal stop, Duration grace) {
    return ShutdownHook.install("ceiling-round-interrupt", stop::request, grace, stop::stopRig);
  }

  /** {@link #hook(StopSignal, Duration)} with the one {@link ShutdownHook#INTERRUPT_GRACE}. */
  static ShutdownHook hook(StopSignal stop) {
    return hook(stop, ShutdownHook.INTERRUPT_GRACE);
  }

  /**
   * Starts the relay {@code up} describes, registers it with {@code stop} (so that the hook's last
   * resort reaches it), runs {@code body} on it and stops it whatever happened. {@code failed}
   * makes the result of a relay that did not start.
   */
  static <R> R withRelay(
      UpOptions up,
      StopSignal stop,
      ExperimentProgress progress,
      Function<RigHandle, R> body,
      Function<String, R> failed) {
    try (RigHandle handle = Rig.up(up)) {
      stop.rigUp(RigControl.Running.of(handle));
      progress.rigUp(handle.descriptor().arm(), handle.descriptor());
      return body.apply(handle);
    } catch (RigException e) {
      // The message, not the exception: a user reads one line naming the field, never a class.
      return failed.apply("the relay did not start: " + e.getMessage());
    } finally {
      stop.takeRigDown();
    }
  }

  /** Makes {@code outDir} and returns {@code outDir/file}, which must not exist yet. */
  static Path freshFile(Path outDir, String file, String round) throws ExperimentException {
    return outputFile(outDir, file, round, false);
  }

  /**
   * Makes {@code outDir} and returns {@code outDir/file}, which must not exist yet unless the round
   * continues it ({@code resume}): a measured round is never overwritten. {@code round} names the
   * round in the refusal; a round that can resume says how.
   */
  static Path outputFile(Path outDir, String file, String round, boolean resumable)
      throws ExperimentException {
    try {
      Files.createDirectories(outDir);
    } catch (IOException e) {
      throw new ExperimentException("cannot create output directory " + outDir + ": " + e, e);
    }
    Path f = outDir.resolve(file);
    if (Files.exists(f)) {
      throw new ExperimentException(
          f
              + " already exists: a "
              + round
              + " never overwrites a measured one; choose --out"
              + (resumable ? ", or continue it with --resume" : ""),
          null);
    }
    return f;
  }

  /** One cell's measurement and the file's rewrite after it. */
  @FunctionalInterface
  interface CellStep<C> {
    void measure(C cell)
        throws OneCellSweep.CellFailed,
            OneCellSweep.CellStopped,
            MetricsException,
            GeneratorException,
            IOException;
  }

  /**
   * The cell loop every round shares, the A/B's arms included: the {@code cells} not yet {@code
   * done} (a resume's stored cells), in the plan's order, each measured and the file or journal
   * written by {@code step}; a stop request ends it between two cells (or inside a cell that is
   * several sweeps, {@link OneCellSweep.CellStopped}), and a failed cell, scrape or generator ends
   * it with the failure (redacted: a message may carry a URL's credentials). The file's write
   * failing propagates: the round cannot say what it measured.
   */
  static <C> RoundEnd cells(List<C> cells, Predicate<C> done, StopSignal stop, CellStep<C> step)
      throws IOException {
    try {
      for (C c : cells) {
        if (done.test(c)) {
          continue;
        }
        if (stop.requested()) {
          return RoundEnd.interrupted();
        }
        step.measure(c);
      }
      return RoundEnd.finished();
    } catch (OneCellSweep.CellStopped e) {
      return RoundEnd.interrupted();
    } catch (OneCellSweep.CellFailed | MetricsException | GeneratorException e) {
      return failedBy(e);
    }
  }

  /** A cell or scrape failure as the loop's end, redacted: a message may carry credentials. */
  static RoundEnd failedBy(Exception e) {
    return RoundEnd.failed(Redaction.redact(e.getMessage()), e);
  }
}
