package dev.ceiling.rig.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the operating system says about a live process: its start instant, exact command line and
 * the rig id in its environment. These plus the pid are the rig's proof that a process is its own.
 */
public final class ProcessInspector {
  /**
   * The environment variable the rig sets on every relay it launches. A pid file can be forged to
   * name any process exactly (pid, start instant, argv); a stranger's environment cannot be
   * rewritten from outside, so this is the proof a file cannot fake.
   */
  public static final String RIG_ID_VARIABLE = "CEILING_RIG_ID";

  private static final Path PROC = Path.of("/proc");

  private ProcessInspector() {}

  /** A live process's identity, or empty if no process has that pid. */
  public static Optional<Identity> identify(long pid) {
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    if (h.isEmpty() || !h.get().isAlive()) {
      return Optional.empty();
    }
    ProcessHandle.Info info = h.get().info();
    Instant start = info.startInstant().orElse(null);
    List<String> command = commandLine(pid, info).orElse(null);
    return Optional.of(new Identity(pid, start, command, environmentRigId(pid).orElse(null)));
  }

  /**
   * The value of {@link #RIG_ID_VARIABLE} in the process's initial environment ({@code
   * /proc/<pid>/environ}), or empty when it is not set or the OS will not say.
   */
  public static Optional<String> environmentRigId(long pid) {
    Path environ = PROC.resolve(Long.toString(pid)).resolve("environ");
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(environ);
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
    String prefix = RIG_ID_VARIABLE + "=";
    for (String entry : nulSeparated(bytes)) {
      if (entry.startsWith(prefix)) {
        return Optional.of(entry.substring(prefix.length()));
      }
    }
    return Optional.empty();
  }

  /**
   * The exact argv. On Linux {@code /proc/<pid>/cmdline} is authoritative: {@link
   * ProcessHandle.Info#commandLine()} is rebuilt from a possibly truncated buffer and is absent for
   * other users' processes. Elsewhere, ProcessHandle's command plus arguments.
   */
  public static Optional<List<String>> commandLine(long pid) {
    return commandLine(pid, ProcessHandle.of(pid).map(ProcessHandle::info).orElse(null));
  }

  private static Optional<List<String>> commandLine(long pid, ProcessHandle.Info info) {
    Path cmdline = PROC.resolve(Long.toString(pid)).resolve("cmdline");
    if (Files.isDirectory(PROC)) {
      try {
        byte[] bytes = Files.readAllBytes(cmdline);
        if (bytes.length == 0) {
          // A zombie or kernel thread: no argv to compare, so nothing to match.
          return Optional.empty();
        }
        return Optional.of(nulSeparated(bytes));
      } catch (IOException e) {
        return Optional.empty();
      }
    }
    if (info == null || info.command().isEmpty()) {
      return Optional.empty();
    }
    List<String> args = new ArrayList<>();
    args.add(info.command().get());
    info.arguments().ifPresent(a -> args.addAll(List.of(a)));
    return Optional.of(List.copyOf(args));
  }

  /** The NUL-separated strings of a {@code /proc} file (argv, environ). */
  private static List<String> nulSeparated(byte[] bytes) {
    List<String> out = new ArrayList<>();
    int from = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        out.add(new String(bytes, from, i - from, StandardCharsets.UTF_8));
        from = i + 1;
      }
    }
    if (from < bytes.length) {
      out.add(new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8));
    }
    return List.copyOf(out);
  }

  /**
   * A live process as the OS reports it.
   *
   * @param pid the process id
   * @param startInstant when it started, or null if the OS would not say
   * @param command its argv, or null if the OS would not say
   * @param environmentRigId its {@link ProcessInspector#RIG_ID_VARIABLE}, or null if unset or the
   *     OS would not say
   */
  public record Identity(
      long pid, Instant startInstant, List<String> command, String environmentRigId) {}
}
