package dev.ceiling.rig.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The TCP sockets a process tree listens on, from the OS's own tables: {@code /proc/net/tcp} and
 * {@code /proc/net/tcp6} (LISTEN rows, with their socket inodes) joined with {@code /proc/<pid>/fd}
 * (which sockets each process holds). The probe only proves the relay answers where it was asked; a
 * relay (or a worker it forked) may also listen elsewhere, and on every interface by default. Linux
 * only: elsewhere it finds nothing, and says so through {@link #supported()}.
 */
public final class Listeners {
  private static final Path PROC = Path.of("/proc");

  private Listeners() {}

  /**
   * One listening socket.
   *
   * @param address the local address as the OS reports it, e.g. {@code 0.0.0.0} or {@code ::}
   * @param port the local port
   * @param inode the socket's inode, which joins the table to the fds
   * @param loopback true when the address is a loopback one (127.0.0.0/8, ::1, ::ffff:127.x.x.x)
   */
  public record Socket(String address, int port, String inode, boolean loopback) {
    /** {@code 0.0.0.0:8008}, or {@code [::]:8008} for IPv6. */
    public String endpoint() {
      return (address.contains(":") ? "[" + address + "]" : address) + ":" + port;
    }
  }

  /**
   * A socket some process of the tree listens on off loopback.
   *
   * @param socket the socket
   * @param pid the process holding it
   */
  public record OffLoopback(Socket socket, long pid) {
    /** {@code 0.0.0.0:8008 (pid 1234)}. */
    public String describe() {
      return socket.endpoint() + " (pid " + pid + ")";
    }
  }

  /** True where the tables this reads exist (Linux). */
  public static boolean supported() {
    return Files.isReadable(PROC.resolve("net/tcp"));
  }

  /**
   * Every socket that {@code rootPid} or any of its descendants listens on at an address that is
   * not loopback, in table order; empty when all are on loopback (or the OS does not say).
   */
  public static List<OffLoopback> offLoopback(long rootPid) {
    List<Long> tree = new ArrayList<>();
    tree.add(rootPid);
    ProcessHandle.of(rootPid).ifPresent(h -> h.descendants().forEach(d -> tree.add(d.pid())));
    return offLoopback(tree);
  }

  /** As {@link #offLoopback(long)}, for exactly the given processes (no descendants added). */
  public static List<OffLoopback> offLoopback(List<Long> pids) {
    Map<String, Long> holders = new HashMap<>();
    for (long pid : pids) {
      socketInodes(pid).forEach(inode -> holders.putIfAbsent(inode, pid));
    }
    List<OffLoopback> out = new ArrayList<>();
    for (Socket s : listening()) {
      Long pid = holders.get(s.inode());
      if (pid != null && !s.loopback()) {
        out.add(new OffLoopback(s, pid));
      }
    }
    return out;
  }

  /** Every LISTEN socket in this network namespace's IPv4 and IPv6 tables. */
  static List<Socket> listening() {
    List<Socket> out = new ArrayList<>();
    for (String table : List.of("net/tcp", "net/tcp6")) {
      try {
        out.addAll(parse(Files.readAllLines(PROC.resolve(table))));
      } catch (IOException e) {
        // No IPv6 table (IPv6 disabled): nothing listens there.
      }
    }
    return out;
  }

  /**
   * The LISTEN rows of one {@code /proc/net/tcp} or {@code tcp6} table, header line included.
   * Addresses are hex in the kernel's byte order: each 32-bit word little-endian.
   *
   * @throws IllegalArgumentException naming the row when a LISTEN row cannot be read
   */
  public static List<Socket> parse(List<String> table) {
    List<Socket> out = new ArrayList<>();
    for (String line : table.subList(Math.min(1, table.size()), table.size())) {
      String[] f = line.trim().split("\\s+", -1);
      // sl local_address rem_address st ... inode: st 0A is LISTEN, field 9 the inode.
      if (f.length <= 9 || !"0A".equals(f[3])) {
        continue;
      }
      int colon = f[1].indexOf(':');
      if (colon < 0) {
        throw new IllegalArgumentException("cannot read the local address of row: " + line);
      }
      InetAddress a = address(f[1].substring(0, colon), line);
      int port = Integer.parseInt(f[1].substring(colon + 1), 16);
      out.add(new Socket(a.getHostAddress(), port, f[9], a.isLoopbackAddress()));
    }
    return out;
  }

  private static InetAddress address(String hex, String line) {
    if (hex.length() != 8 && hex.length() != 32) {
      throw new IllegalArgumentException("expected 8 or 32 hex digits of address in row: " + line);
    }
    byte[] b = new byte[hex.length() / 2];
    for (int word = 0; word < b.length / 4; word++) {
      for (int i = 0; i < 4; i++) {
        int at = word * 8 + (3 - i) * 2;
        b[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
      }
    }
    try {
      // An IPv4-mapped IPv6 address comes back as the IPv4 address, so ::ffff:127.0.0.1 reads as
      // loopback, as it is.
      return InetAddress.getByAddress(b);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("bad address in row: " + line, e);
    }
  }

  /** The inodes of the sockets a process holds; none when its fds are not readable. */
  private static List<String> socketInodes(long pid) {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(PROC.resolve(pid + "/fd"))) {
      for (Path fd : fds) {
        readLink(fd)
            .filter(t -> t.startsWith("socket:[") && t.endsWith("]"))
            .ifPresent(t -> out.add(t.substring(8, t.length() - 1)));
      }
    } catch (IOException | SecurityException e) {
      // Gone already, or another user's: nothing to add.
    }
    return out;
  }

  private static Optional<String> readLink(Path fd) {
    try {
      return Optional.of(Files.readSymbolicLink(fd).toString());
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
