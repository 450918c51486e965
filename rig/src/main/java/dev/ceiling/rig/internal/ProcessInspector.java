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
 * What the operating system says about a live process: its start instant and exact command line.
 * These two plus the pid are the rig's proof that a process is its own.
 */
public final class ProcessInspector {
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
    return Optional.of(new Identity(pid, start, command));
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
        List<String> args = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < bytes.length; i++) {
          if (bytes[i] == 0) {
            args.add(new String(bytes, from, i - from, StandardCharsets.UTF_8));
            from = i + 1;
          }
        }
        if (from < bytes.length) {
          args.add(new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8));
        }
        return Optional.of(List.copyOf(args));
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

  /**
   * A live process as the OS reports it.
   *
   * @param pid the process id
   * @param startInstant when it started, or null if the OS would not say
   * @param command its argv, or null if the OS would not say
   */
  public record Identity(long pid, Instant startInstant, List<String> command) {}
}
