package dev.ceiling.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.core.testing.SharedNostream;
import dev.ceiling.nostr.EventSigner;
import dev.ceiling.nostr.Keys;
import dev.ceiling.nostr.NostrEvent;
import dev.ceiling.rig.ControlCheck;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.rig.proxy.LinkCounters;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delay proxy's wire count on a relay nobody here wrote, against the truth from the services
 * themselves. nostream 2.0.0 runs through the rig with docs/profiles/nostream (its PostgreSQL link
 * {@code db} and its Redis link {@code cache} each behind a {@code DelayProxy}, at zero added
 * delay), in the treatment arm (its Redis rate-limit rules on, never refusing). A counted batch of
 * signed events, some with a broken signature, goes out one at a time, each after the previous
 * one's OK; the independent truth is PostgreSQL's statement log ({@code log_statement = all}) and
 * Redis {@code MONITOR}, read over the same span.
 *
 * <p>What was measured (by hand first with a Node client straight to the services, then here
 * through the proxies; with 40 accepted and 10 refused: db 40 turns and 40 statements, cache 80
 * turns, 80 hits, 320 commands): on {@code db}, one statement per accepted event, an {@code INSERT}
 * sent with the extended protocol (Parse/Bind/Execute/Sync in one write, logged as {@code execute
 * <unnamed>}), so one wire turn. On {@code cache}, two sliding-window hits per kind-1 event (the
 * rule for kinds 1, 2, 4, 42 and the rule for all kinds apply), each hit four commands
 * (ZREMRANGEBYSCORE, ZADD, ZRANGE, EXPIRE) issued together and pipelined by node-redis in one
 * write, the two hits awaited one after the other: eight commands and two turns per event. An event
 * refused for its signature touches neither link: nostream checks the id and signature first, then
 * the rate limit, then stores. The replies on {@code cache} grow with the data (ZRANGE returns the
 * whole window's set: about 42 KB back for the batch's 80 hits), the turns do not.
 *
 * <p>The partners run here and must disagree with the truth: the links swapped (db's turns against
 * cache's requests and back), and the denominators swapped (the proxy's turns over the offered
 * events, the truth over the accepted ones, which differ because some events are refused).
 *
 * <p>Counts only, never timings: the batch is serial, so no two events' requests share a wire turn
 * however loaded the machine is. One worker and a pool of one database connection, opened by a
 * warm-up before the count, so no connection start-up (whose turns are no statement) falls inside
 * it; the test checks that no connection opened during the batch.
 *
 * <p>Needs Node, PostgreSQL's server binaries and redis-server. {@code .ci/run} runs the profile's
 * setup beside the build and names its exit-code file in {@code CEILING_NOSTREAM_STATUS} and its
 * work directory in {@code CEILING_NOSTREAM_DIR}; this test waits for the file, and skips loudly
 * only when the setup failed. Without them it runs the setup itself (a few minutes: npm ci and the
 * TypeScript build) and stops the servers it started afterwards.
 */
class NostreamWireCountIT {
  @RegisterExtension
  static final SharedNostream NOSTREAM = SharedNostream.fromCiOrOwn("The wire count on nostream");

  static final Path PROFILE_DIR = SharedNostream.PROFILE_DIR;
  private static final int ACCEPTED = 40;
  private static final int BAD_SIGNATURES = 10;
  private static final Duration OK_WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void theProxiesTurnsPerAcceptedEventMatchTheStatementLogAndMonitor() throws Exception {
    Map<String, String> env = NOSTREAM.env();
    assertThat(env.get("NOSTREAM_PG_LOG_STATEMENT"))
        .as("the setup must have run with --log-statements for PostgreSQL's log to be the truth")
        .isEqualTo("all");
    int redisPort = Integer.parseInt(env.get("NOSTREAM_REDIS_PORT"));
    Path pgLog = Path.of(env.get("NOSTREAM_PG_LOG"));
    int relayPort = FreePorts.one();
    UpOptions o = options(env, "rules", relayPort, dir.resolve("rig"));
    try (Monitor monitor = Monitor.open(redisPort);
        RigHandle h = Rig.up(o);
        Client client = Client.open(URI.create("ws://127.0.0.1:" + relayPort + "/"))) {
      String rigId = h.descriptor().rigId();
      Keys keys = Keys.generate();
      // Warm-up: opens the pool's one connection and node-redis's connection.
      for (int i = 0; i < 3; i++) {
        assertThat(client.publish(signed(keys, "warm-up " + i))).startsWith("[\"OK\"");
      }
      LinkCounters db0 = h.proxies().get("db").counters();
      LinkCounters cache0 = h.proxies().get("cache").counters();
      long logFrom = Files.size(pgLog);
      // The profile's control_check, straight to Redis: before the monitor's span and after it,
      // since MONITOR shows its INFO too.
      ControlCheck.Result check0 = ControlCheck.run(h.descriptor().controlCheck(), CHECK_WAIT);
      int monitorFrom = monitor.lines().size();

      int accepted = 0;
      int refused = 0;
      for (int i = 0; i < ACCEPTED + BAD_SIGNATURES; i++) {
        boolean bad = i % 5 == 4;
        NostrEvent e = signed(keys, "counted " + i);
        String ok = client.publish(bad ? withBrokenSignature(e) : e);
        if (ok.startsWith("[\"OK\",\"" + e.id() + "\",true")) {
          accepted++;
        } else if (ok.startsWith("[\"OK\",\"" + e.id() + "\",false,\"invalid:")) {
          refused++;
        } else {
          throw new AssertionError("unexpected answer to event " + i + ": " + ok);
        }
      }
      LinkCounters db = h.proxies().get("db").counters().minus(db0);
      LinkCounters cache = h.proxies().get("cache").counters().minus(cache0);
      assertThat(accepted).isEqualTo(ACCEPTED);
      assertThat(refused).isEqualTo(BAD_SIGNATURES);
      assertThat(db.connections()).as("db connections opened during the batch").isZero();
      assertThat(cache.connections()).as("cache connections opened during the batch").isZero();

      // The truth, from the services. Redis writes to a monitor as it runs each command, PostgreSQL
      // to its log as each statement starts, both before answering, so every request of the batch
      // is there once its OK has arrived; the waits only cover the last lines' delivery.
      long statements = awaitCount(() -> statements(pgLog, logFrom), accepted);
      int zadds = (int) awaitCount(() -> commands(monitor, monitorFrom, "ZADD"), 2L * accepted);
      long commands = commands(monitor, monitorFrom, null);
      ControlCheck.Result check1 = ControlCheck.run(h.descriptor().controlCheck(), CHECK_WAIT);
      System.err.printf(
          "NostreamWireCountIT: %d accepted, %d refused; db: %d turns, %d statements (%d bytes out,"
              + " %d back); cache: %d turns, %d commands, %d ZADD (%d bytes out, %d back)%n",
          accepted,
          refused,
          db.turns(),
          statements,
          db.bytesToTarget(),
          db.bytesToClient(),
          cache.turns(),
          commands,
          zadds,
          cache.bytesToTarget(),
          cache.bytesToClient());

      // What nostream does, as measured: one INSERT and two rule hits of four commands per accepted
      // event, nothing for an event refused for its signature.
      assertThat(statements).as("statements in PostgreSQL's log").isEqualTo(accepted);
      assertThat(zadds).as("rate-limit hits (ZADD) in MONITOR").isEqualTo(2 * accepted);
      assertThat(commands).as("Redis commands in MONITOR").isEqualTo(4L * zadds);

      // The known answer: each wire turn the proxy counted is one of those requests (a statement on
      // db, a pipelined hit on cache), so turns per accepted event equal the truth's.
      Truth truth = new Truth(statements, zadds, accepted, accepted + refused);
      assertThat(truth.agrees(db.turns(), cache.turns(), Mutation.NONE))
          .as(
              "db %d turns vs %d statements, cache %d turns vs %d hits",
              db.turns(), statements, cache.turns(), zadds)
          .isTrue();
      assertThat(cache.turns())
          .as("a turn carries at least one command")
          .isLessThanOrEqualTo(commands);
      // Partners: the same comparison with the links swapped, or the denominators swapped, fails.
      assertThat(truth.agrees(db.turns(), cache.turns(), Mutation.LINKS_SWAPPED)).isFalse();
      assertThat(truth.agrees(db.turns(), cache.turns(), Mutation.DENOMINATORS_SWAPPED)).isFalse();

      // The control_check's partner: on the treatment arm it moves, by the hits MONITOR saw.
      assertThat(zaddCalls(check1) - zaddCalls(check0)).isEqualTo(zadds);

      DownResultCheck.stopAndCheckNothingOfOursRuns(h, rigId);
    }
  }

  /**
   * The profile's control_check on the control arm: nostream with no rules sends Redis nothing, so
   * the cache proxy sees no turn and the ZADD count stays where it was across a batch (the
   * treatment test above shows the same check moving). db still carries one turn per event.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void onTheControlArmTheCacheLinkIsSilentAndTheControlCheckHoldsStill() throws Exception {
    Map<String, String> env = NOSTREAM.env();
    int relayPort = FreePorts.one();
    try (RigHandle h = Rig.up(options(env, "none", relayPort, dir.resolve("rig-none")));
        Client client = Client.open(URI.create("ws://127.0.0.1:" + relayPort + "/"))) {
      Keys keys = Keys.generate();
      for (int i = 0; i < 3; i++) {
        assertThat(client.publish(signed(keys, "warm-up " + i))).startsWith("[\"OK\"");
      }
      LinkCounters db0 = h.proxies().get("db").counters();
      LinkCounters cache0 = h.proxies().get("cache").counters();
      ControlCheck.Result before = ControlCheck.run(h.descriptor().controlCheck(), CHECK_WAIT);
      int events = 20;
      for (int i = 0; i < events; i++) {
        NostrEvent e = signed(keys, "control " + i);
        assertThat(client.publish(e)).startsWith("[\"OK\",\"" + e.id() + "\",true");
      }
      ControlCheck.Result after = ControlCheck.run(h.descriptor().controlCheck(), CHECK_WAIT);
      LinkCounters db = h.proxies().get("db").counters().minus(db0);
      LinkCounters cache = h.proxies().get("cache").counters().minus(cache0);
      assertThat(before.exitCode()).as(before.output()).isZero();
      assertThat(before.output()).matches("zadd_calls=\\d+");
      assertThat(after).isEqualTo(before);
      assertThat(cache.turns()).as("cache turns on the control arm").isZero();
      assertThat(db.turns()).as("db turns on the control arm").isEqualTo(events);
      DownResultCheck.stopAndCheckNothingOfOursRuns(h, h.descriptor().rigId());
    }
  }

  /**
   * Why the profile preloads listen-loopback.js: without it nostream's {@code listen(port)} binds
   * every interface, and the rig stops it and refuses, naming the address. The profile is the real
   * one with its NODE_OPTIONS removed, written to this test's directory with {@code ${profile_dir}}
   * spelled out.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void withoutThePreloadNostreamListensOnEveryInterfaceAndIsStoppedAndRefused() throws Exception {
    Map<String, String> env = NOSTREAM.env();
    String text = Files.readString(PROFILE_DIR.resolve("profile.json"));
    String preload = "\"NODE_OPTIONS\": \"--require ${profile_dir}/listen-loopback.js\",";
    assertThat(text).contains(preload);
    Path profile = dir.resolve("no-preload.json");
    Files.writeString(
        profile,
        text.replace(preload, "")
            .replace("${profile_dir}", PROFILE_DIR.toAbsolutePath().normalize().toString()));
    int relayPort = FreePorts.one();
    UpOptions o =
        options(RelayProfile.load(profile), env, "none", relayPort, dir.resolve("rig-wild"));
    try {
      RigHandle h = Rig.up(o);
      h.close();
      throw new AssertionError("nostream without the preload was started: " + h.descriptor());
    } catch (dev.ceiling.rig.RigException e) {
      assertThat(e.kind()).isEqualTo(dev.ceiling.rig.RigException.Kind.START_FAILED);
      assertThat(e.problems())
          .as(e.getMessage())
          .anyMatch(l -> l.matches("listens off loopback on .*:" + relayPort + " \\(pid \\d+\\)"));
      assertThat(e.getMessage()).contains("it has been stopped (STOPPED)");
    }
    // Its workers go with it.
    String dist = Path.of(env.get("NOSTREAM_DIR"), "dist").toString();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    List<Long> left = DownResultCheck.running(dist);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(200);
      left = DownResultCheck.running(dist);
    }
    assertThat(left).as("nostream processes left after the refusal").isEmpty();
  }

  private static final Duration CHECK_WAIT = Duration.ofSeconds(30);

  /**
   * The profile in {@code arm}, on the setup's services: one worker and a pool of one connection,
   * so the warm-up opens every connection before anything is counted.
   */
  private static UpOptions options(Map<String, String> env, String arm, int relayPort, Path state)
      throws Exception {
    return options(
        RelayProfile.load(PROFILE_DIR.resolve("profile.json")), env, arm, relayPort, state);
  }

  private static UpOptions options(
      RelayProfile profile, Map<String, String> env, String arm, int relayPort, Path state) {
    return UpOptions.of(profile, arm, state)
        .withOverrides(
            Map.of(
                "nostream_dir", env.get("NOSTREAM_DIR"),
                "pg_port", env.get("NOSTREAM_PG_PORT"),
                "redis_port", env.get("NOSTREAM_REDIS_PORT"),
                "port", Integer.toString(relayPort),
                "worker_count", "1",
                "db_min_pool_size", "1",
                "db_max_pool_size", "1"))
        .withTimeouts(Duration.ofSeconds(90), Duration.ofSeconds(15), Duration.ofSeconds(15));
  }

  private static long zaddCalls(ControlCheck.Result r) {
    assertThat(r.exitCode()).as(r.output()).isZero();
    Matcher m = Pattern.compile("^zadd_calls=(\\d+)$").matcher(r.output());
    assertThat(m.matches()).as(r.output()).isTrue();
    return Long.parseLong(m.group(1));
  }

  /**
   * Which deliberate mistake the comparison makes; NONE is the real one. LINKS_SWAPPED compares
   * db's turns with cache's truth and back (1 against 2 per event); DENOMINATORS_SWAPPED divides
   * the proxy's turns by the events offered instead of accepted (the refused ones make them differ:
   * 0.8 against 1 on db).
   */
  enum Mutation {
    NONE,
    LINKS_SWAPPED,
    DENOMINATORS_SWAPPED
  }

  /**
   * The services' own counts over the batch, and the comparison with the proxy's turns per accepted
   * event.
   *
   * @param statements statements PostgreSQL logged
   * @param hits rate-limit hits Redis ran (one pipelined request of four commands each)
   * @param accepted events answered OK true
   * @param offered events sent
   */
  record Truth(long statements, long hits, int accepted, int offered) {
    boolean agrees(long dbTurns, long cacheTurns, Mutation m) {
      double dbTruth = (double) statements / accepted;
      double cacheTruth = (double) hits / accepted;
      int proxyDenominator = m == Mutation.DENOMINATORS_SWAPPED ? offered : accepted;
      double dbSeen = (double) dbTurns / proxyDenominator;
      double cacheSeen = (double) cacheTurns / proxyDenominator;
      if (m == Mutation.LINKS_SWAPPED) {
        return close(dbSeen, cacheTruth) && close(cacheSeen, dbTruth);
      }
      return close(dbSeen, dbTruth) && close(cacheSeen, cacheTruth);
    }

    private static boolean close(double a, double b) {
      return Math.abs(a - b) < 1e-9;
    }
  }

  /** Stops the relay and checks that none of its processes (its workers included) outlive it. */
  static final class DownResultCheck {
    static void stopAndCheckNothingOfOursRuns(RigHandle h, String rigId) throws Exception {
      long pid = h.descriptor().relayPid();
      h.stop();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      List<Long> left = processesCarrying(rigId);
      while (!left.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(200);
        left = processesCarrying(rigId);
      }
      assertThat(left).as("processes of relay pid " + pid + " still running after stop").isEmpty();
    }

    /** Pids whose command line mentions {@code text}. */
    static List<Long> running(String text) throws IOException {
      List<Long> out = new ArrayList<>();
      byte[] needle = text.getBytes(StandardCharsets.UTF_8);
      try (var procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
        for (Path p : procs) {
          try {
            if (indexOf(Files.readAllBytes(p.resolve("cmdline")), needle) >= 0) {
              out.add(Long.parseLong(p.getFileName().toString()));
            }
          } catch (IOException e) {
            // Gone.
          }
        }
      }
      return out;
    }

    /** Pids whose environment carries the rig id: the relay and every process it forked. */
    private static List<Long> processesCarrying(String rigId) throws IOException {
      List<Long> out = new ArrayList<>();
      byte[] needle = ("CEILING_RIG_ID=" + rigId).getBytes(StandardCharsets.UTF_8);
      try (var procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
        for (Path p : procs) {
          byte[] environ;
          try {
            environ = Files.readAllBytes(p.resolve("environ"));
          } catch (IOException e) {
            continue;
          }
          if (indexOf(environ, needle) >= 0) {
            out.add(Long.parseLong(p.getFileName().toString()));
          }
        }
      }
      return out;
    }

    private static int indexOf(byte[] hay, byte[] needle) {
      outer:
      for (int i = 0; i + needle.length <= hay.length; i++) {
        for (int j = 0; j < needle.length; j++) {
          if (hay[i + j] != needle[j]) {
            continue outer;
          }
        }
        return i;
      }
      return -1;
    }
  }

  private static NostrEvent signed(Keys keys, String content) {
    return EventSigner.sign(keys, System.currentTimeMillis() / 1000, 1, List.of(), content);
  }

  /** The same event with its signature's last hex digit changed: well-formed, but invalid. */
  private static NostrEvent withBrokenSignature(NostrEvent e) {
    String sig = e.sig();
    char last = sig.charAt(sig.length() - 1);
    String broken = sig.substring(0, sig.length() - 1) + (last == '0' ? '1' : '0');
    return new NostrEvent(
        e.id(), e.pubkey(), e.createdAt(), e.kind(), e.tags(), e.content(), broken);
  }

  private static final Pattern STATEMENT = Pattern.compile(" LOG:  (statement|execute [^:]*): ");

  /**
   * Statements PostgreSQL logged from byte {@code from} on (one LOG line each; DETAIL lines
   * skipped).
   */
  private static long statements(Path log, long from) throws IOException {
    long n = 0;
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      f.seek(from);
      byte[] rest = new byte[(int) (f.length() - from)];
      f.readFully(rest);
      for (String line : new String(rest, StandardCharsets.UTF_8).split("\n", -1)) {
        if (STATEMENT.matcher(line).find()) {
          n++;
        }
      }
    }
    return n;
  }

  private static final Pattern MONITOR_LINE =
      Pattern.compile("^\\+\\d+\\.\\d+ \\[\\d+ [^\\]]+\\] \"([A-Za-z]+)\"");

  /** Commands the monitor saw from line {@code from} on; only {@code name} when given. */
  private static long commands(Monitor m, int from, String name) {
    long n = 0;
    List<String> lines = m.lines();
    for (String line : lines.subList(from, lines.size())) {
      Matcher x = MONITOR_LINE.matcher(line);
      if (x.find() && (name == null || x.group(1).equalsIgnoreCase(name))) {
        n++;
      }
    }
    return n;
  }

  @FunctionalInterface
  interface Count {
    long get() throws IOException;
  }

  /** The count once it reaches {@code want}, or whatever it is after 10 s (the assertion says). */
  private static long awaitCount(Count c, long want) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    long n = c.get();
    while (n < want && System.nanoTime() < deadline) {
      Thread.sleep(100);
      n = c.get();
    }
    // A little longer, so a count above the expected one is seen too.
    Thread.sleep(300);
    return c.get();
  }

  /** Redis MONITOR on its own connection, straight to the server (not through the proxy). */
  static final class Monitor implements AutoCloseable {
    private final Socket socket;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private Monitor(Socket socket) {
      this.socket = socket;
      this.reader =
          new Thread(
              () -> {
                try (BufferedReader r =
                    new BufferedReader(
                        new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                  }
                } catch (IOException e) {
                  // Closed by close().
                }
              },
              "redis-monitor");
      reader.setDaemon(true);
    }

    static Monitor open(int port) throws Exception {
      Socket s = new Socket(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port);
      Monitor m = new Monitor(s);
      m.reader.start();
      s.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (m.lines.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(m.lines).as("Redis's answer to MONITOR").startsWith("+OK");
      return m;
    }

    List<String> lines() {
      return lines;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  /** A NIP-01 client that publishes one event and waits for its OK. */
  static final class Client implements AutoCloseable, WebSocket.Listener {
    private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    private final StringBuilder partial = new StringBuilder();
    private WebSocket ws;

    static Client open(URI uri) throws Exception {
      Client c = new Client();
      c.ws =
          HttpClient.newHttpClient()
              .newWebSocketBuilder()
              .connectTimeout(Duration.ofSeconds(10))
              .buildAsync(uri, c)
              .get(30, TimeUnit.SECONDS);
      return c;
    }

    /** Sends the event and returns the relay's OK for it. */
    String publish(NostrEvent e) throws Exception {
      ws.sendText("[\"EVENT\"," + e.toJson() + "]", true).get(10, TimeUnit.SECONDS);
      long deadline = System.nanoTime() + OK_WAIT.toNanos();
      while (true) {
        String m = messages.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (m == null) {
          throw new AssertionError("no OK for event " + e.id() + " within " + OK_WAIT);
        }
        if (m.startsWith("[\"OK\",\"" + e.id() + "\"")) {
          return m;
        }
      }
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        messages.add(partial.toString());
        partial.setLength(0);
      }
      webSocket.request(1);
      return null;
    }

    @Override
    public void close() {
      if (ws != null) {
        ws.abort();
      }
    }
  }
}
