package dev.ceiling.core.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback TCP ports for servers a caller is about to start (a relay, its database), free when
 * picked, chosen below the kernel's ephemeral port range.
 *
 * <p>Why below it: a port the kernel picks (a bind to port 0) comes from the ephemeral range, and
 * between the probe closing it and the server binding it, any process's outgoing connection or bind
 * to port 0 may be handed that same port. On a build that runs several test JVMs, each opening
 * connections by the thousand, that happened (a relay's bind failed with "Address already in use").
 * A port below the range is only ever taken by a process that names it. Where the range cannot be
 * read (not Linux) or leaves too little room below it, the kernel picks, as before.
 */
public final class LoopbackPorts {
  /** The lowest port picked: above the well-known and most registered service ports. */
  static final int LOWEST = 10_000;

  /** Fewer candidates than this below the ephemeral range, and the kernel picks instead. */
  static final int MIN_ROOM = 1_000;

  private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  private static final int ATTEMPTS_PER_PORT = 50;

  private LoopbackPorts() {}

  /** One port that was free on 127.0.0.1 when this returned. */
  public static int one() {
    return pick(1).get(0);
  }

  /**
   * {@code n} distinct ports that were free on 127.0.0.1 a moment ago. Every probe socket is held
   * until all are picked, so no port is returned twice; another process that names one may still
   * take it before the server binds it, which the rig then reports as PORT_IN_USE.
   *
   * @throws UncheckedIOException when no socket can be bound
   */
  public static List<Integer> pick(int n) {
    return pick(n, ThreadLocalRandom.current(), ephemeralLow());
  }

  /** As {@link #pick(int)}, with the random source and the ephemeral range's low end given. */
  static List<Integer> pick(int n, Random random, int ephemeralLow) {
    List<ServerSocket> held = new ArrayList<>();
    try {
      List<Integer> ports = new ArrayList<>();
      boolean below = ephemeralLow - LOWEST >= MIN_ROOM;
      for (int i = 0; i < n; i++) {
        ServerSocket s = below ? belowRange(random, ephemeralLow) : null;
        if (s == null) {
          s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        }
        held.add(s);
        ports.add(s.getLocalPort());
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind a free port on 127.0.0.1: " + e.getMessage(), e);
    } finally {
      for (ServerSocket s : held) {
        try {
          s.close();
        } catch (IOException e) {
          // Nothing to do: the port was only probed.
        }
      }
    }
  }

  /** A bound probe on a random port in [LOWEST, ephemeralLow), or null when none could bind. */
  private static ServerSocket belowRange(Random random, int ephemeralLow) {
    for (int attempt = 0; attempt < ATTEMPTS_PER_PORT; attempt++) {
      int port = LOWEST + random.nextInt(ephemeralLow - LOWEST);
      try {
        return new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
      } catch (IOException e) {
        // Taken (or held by this very pick): try another.
      }
    }
    return null;
  }

  /** The ephemeral range's low end, or {@link #LOWEST} (no room: the kernel picks) when unknown. */
  static int ephemeralLow() {
    try {
      String[] range = Files.readString(RANGE).trim().split("\\s+", -1);
      return Integer.parseInt(range[0]);
    } catch (IOException | RuntimeException e) {
      return LOWEST;
    }
  }
}
