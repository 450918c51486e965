package dev.ceiling.rig;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a profile's {@code control_check} once: the expanded command from the descriptor, with this
 * process's environment, its standard output kept (trimmed, at most {@link #MAX_OUTPUT_CHARS}) and
 * its standard error discarded. The sweep runs it before and after each cell of the control arm;
 * the two results must be equal, or the arm's code path is live.
 *
 * <p>Thread-safe (no state). Never throws for a command that fails: the failure is the result.
 */
public final class ControlCheck {
  /** How much of the output is kept: a count or a digest fits; a dump is cut. */
  public static final int MAX_OUTPUT_CHARS = 4096;

  private ControlCheck() {}

  /**
   * One run's outcome.
   *
   * @param output the trimmed standard output, or the reason the command did not finish
   * @param exitCode the exit code, or null when it could not start or did not finish in time
   */
  public record Result(String output, Integer exitCode) {
    public Result {
      Objects.requireNonNull(output, "output must not be null");
    }
  }

  /**
   * Runs {@code command} and waits at most {@code timeout} for it.
   *
   * @throws InterruptedException when interrupted while waiting (the command is killed)
   */
  public static Result run(List<String> command, Duration timeout) throws InterruptedException {
    Process p;
    try {
      p =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      return new Result("cannot run " + command + ": " + e.getMessage(), null);
    }
    // A thread of its own, not the common pool: a grandchild that keeps the pipe open would hold a
    // pool thread (one, on two cores) until the pipe closes.
    CompletableFuture<String> out = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try {
                out.complete(read(p.getInputStream()));
              } catch (RuntimeException e) {
                out.completeExceptionally(e);
              }
            },
            "control-check-output");
    reader.setDaemon(true);
    reader.start();
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        return new Result(command + " did not finish within " + timeout.toMillis() + " ms", null);
      }
      return new Result(out.get(timeout.toMillis(), TimeUnit.MILLISECONDS).strip(), p.exitValue());
    } catch (InterruptedException e) {
      p.destroyForcibly();
      throw e;
    } catch (ExecutionException | TimeoutException e) {
      return new Result("cannot read the output of " + command + ": " + e, null);
    }
  }

  private static String read(InputStream in) {
    try (in) {
      byte[] bytes = in.readNBytes(MAX_OUTPUT_CHARS * 4);
      // Drain the rest so a chatty command never blocks on a full pipe.
      in.transferTo(java.io.OutputStream.nullOutputStream());
      String s = new String(bytes, StandardCharsets.UTF_8);
      return s.length() > MAX_OUTPUT_CHARS ? s.substring(0, MAX_OUTPUT_CHARS) : s;
    } catch (IOException e) {
      return "cannot read the output: " + e.getMessage();
    }
  }
}
