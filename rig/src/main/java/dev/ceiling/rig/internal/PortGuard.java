package dev.ceiling.rig.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Whether a loopback port is free, and what can be told about whoever holds it. */
public final class PortGuard {
  private PortGuard() {}

  /**
   * True when a listener could bind 127.0.0.1:port now. SO_REUSEADDR is set, as every server sets
   * it, so a port lingering in TIME_WAIT after the previous relay reads as free; a live listener on
   * 127.0.0.1 or on the wildcard address still makes the bind fail.
   */
  public static boolean isFree(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Waits until every port is free or the wait is over.
   *
   * @return the ports still busy at the end (empty when all are free)
   */
  public static List<Map.Entry<String, Integer>> awaitFree(
      Map<String, Integer> ports, Duration wait, Duration poll) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      List<Map.Entry<String, Integer>> busy = new ArrayList<>();
      for (Map.Entry<String, Integer> e : ports.entrySet()) {
        if (!isFree(e.getValue())) {
          busy.add(e);
        }
      }
      if (busy.isEmpty() || System.nanoTime() - deadline >= 0) {
        return busy;
      }
      Thread.sleep(poll.toMillis());
    }
  }

  /**
   * What the OS says about the listener on a TCP port: its pid and command line when it belongs to
   * a process this user may inspect, else the socket inode, else that nothing could be learned.
   */
  public static String describeListener(int port) {
    Set<String> inodes = listeningInodes(port);
    if (inodes.isEmpty()) {
      return "no LISTEN socket visible in /proc/net/tcp*; the port may be bound without listening"
          + " or held in another network namespace";
    }
    List<String> owners = new ArrayList<>();
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path proc : procs) {
        findOwner(proc, inodes).ifPresent(owners::add);
      }
    } catch (IOException e) {
      // Fall through: report the inode alone.
    }
    if (owners.isEmpty()) {
      return "listening socket inode " + inodes + " (owner not visible to this user)";
    }
    return String.join("; ", owners);
  }

  private static Optional<String> findOwner(Path proc, Set<String> inodes) {
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
      for (Path fd : fds) {
        String target;
        try {
          target = Files.readSymbolicLink(fd).toString();
        } catch (IOException e) {
          continue;
        }
        if (target.startsWith("socket:[")
            && inodes.contains(target.substring(8, target.length() - 1))) {
          long pid = Long.parseLong(proc.getFileName().toString());
          String cmd =
              ProcessInspector.commandLine(pid).map(c -> String.join(" ", c)).orElse("(unknown)");
          if (cmd.length() > 300) {
            cmd = cmd.substring(0, 300) + "...";
          }
          return Optional.of("pid " + pid + ": " + cmd);
        }
      }
    } catch (IOException | SecurityException e) {
      // Another user's process: its fds are not readable.
    }
    return Optional.empty();
  }

  private static Set<String> listeningInodes(int port) {
    Set<String> inodes = new HashSet<>();
    String hexPort = String.format(Locale.ROOT, "%04X", port);
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> lines;
      try {
        lines = Files.readAllLines(Path.of(table));
      } catch (IOException e) {
        continue;
      }
      for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
        String[] f = line.trim().split("\\s+", -1);
        // local_address is HEXIP:HEXPORT; state 0A is LISTEN; field 9 is the inode.
        if (f.length > 9 && f[1].endsWith(":" + hexPort) && "0A".equals(f[3])) {
          inodes.add(f[9]);
        }
      }
    }
    return inodes;
  }
}
