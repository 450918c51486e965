package dev.ceiling.relay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The two-link test relay (test code only): the reference relay whose audit path, in place of its
 * database write, makes a known number of sequential request/response exchanges with each of
 * several TCP echo services, per entry. The relay's queue, workers, OK path and Prometheus metrics
 * are the reference relay's own, so a profile's metric mapping reads it unchanged; only the
 * exchanges differ ({@link AuditLog.Writers}, the seam).
 *
 * <p>Usage: the reference relay's flags, plus {@code --echo HOST:PORT=N} once per link, in the
 * order the path visits them: each entry makes N exchanges with that service, each a 32-byte
 * request written and its whole echo read back before the next. So the path's round trips per event
 * on each link are exactly the N given, and a delay proxy on the link counts N turns per entry. The
 * database still runs (the relay's calibration and row gauge use it) but the audit path never
 * touches it.
 */
public final class TwoLinkRelay {
  /** The bytes of one exchange's request; the echo returns the same. */
  static final int REQUEST_BYTES = 32;

  private TwoLinkRelay() {}

  /** One link of the path: its echo service and the exchanges each entry makes with it. */
  record Link(InetSocketAddress service, int exchanges) {
    static Link parse(String text) {
      int eq = text.lastIndexOf('=');
      int colon = text.lastIndexOf(':', eq);
      if (eq < 0 || colon < 0) {
        throw new IllegalArgumentException("--echo: expected HOST:PORT=N, got " + text);
      }
      int n = Integer.parseInt(text.substring(eq + 1));
      if (n < 1) {
        throw new IllegalArgumentException("--echo: N must be >= 1, got " + text);
      }
      return new Link(
          new InetSocketAddress(
              text.substring(0, colon), Integer.parseInt(text.substring(colon + 1, eq))),
          n);
    }
  }

  public static void main(String[] args) {
    List<Link> links = new ArrayList<>();
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if ("--echo".equals(args[i]) && i + 1 < args.length) {
        links.add(Link.parse(args[++i]));
      } else {
        rest.add(args[i]);
      }
    }
    if (links.isEmpty()) {
      System.err.println("two-link relay: at least one --echo HOST:PORT=N is required");
      System.exit(2);
    }
    List<Link> path = List.copyOf(links);
    ReferenceRelayMain.run(rest.toArray(String[]::new), db -> worker -> new EchoWriter(path));
  }

  /** One worker's connections, one per link, and the exchanges of an entry on them. */
  static final class EchoWriter implements AuditLog.EntryWriter {
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Link> links;

    EchoWriter(List<Link> links) throws SQLException {
      this.links = links;
      try {
        for (Link l : links) {
          Socket s = new Socket();
          sockets.add(s);
          s.setTcpNoDelay(true);
          s.connect(l.service(), 5_000);
          s.setSoTimeout(30_000);
        }
      } catch (IOException e) {
        close();
        throw new SQLException("cannot reach an echo service: " + e, e);
      }
    }

    @Override
    public AuditWriter.LeaseTimes write(AuditLocks.Chain chain, AuditEntry entry, boolean fail)
        throws SQLException {
      byte[] request =
          entry.eventId().substring(0, REQUEST_BYTES).getBytes(StandardCharsets.US_ASCII);
      try {
        for (int i = 0; i < links.size(); i++) {
          OutputStream out = sockets.get(i).getOutputStream();
          InputStream in = sockets.get(i).getInputStream();
          for (int n = 0; n < links.get(i).exchanges(); n++) {
            out.write(request);
            out.flush();
            byte[] echo = in.readNBytes(REQUEST_BYTES);
            if (!Arrays.equals(echo, request)) {
              throw new SQLException("link " + i + " echoed " + echo.length + " wrong bytes");
            }
          }
        }
      } catch (IOException e) {
        throw new SQLException("echo exchange failed: " + e, e);
      }
      if (fail) {
        throw new SQLException("injected audit write error (--fault-audit-write-error-p)");
      }
      return new AuditWriter.LeaseTimes(0, 0, 0);
    }

    @Override
    public void close() {
      for (Socket s : sockets) {
        try {
          s.close();
        } catch (IOException e) {
          // Nothing left to release on a socket that will not close.
        }
      }
    }
  }
}
