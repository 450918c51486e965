package dev.ceiling.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.GeneratorMain;
import dev.ceiling.cli.Main;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.ChildClasspath;
import dev.ceiling.generator.GeneratorReport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several hosts on one machine: two generator processes, each in a network namespace of its own,
 * load the reference relay in a third namespace over veth pairs joined by a bridge, each running
 * {@code generate --segment i/2 --start-at T}; then {@code ceiling merge} joins their reports. The
 * merged report's counts are exactly the whole schedule's planned slots.
 *
 * <p>The loopback rule: the generator refuses non-loopback targets unless {@code --allow-remote} is
 * given, and the relay listens on 127.0.0.1 unless the system property {@code
 * ceiling.relay.bind-address} says otherwise (docs/REFERENCE_RELAY.md). This test passes both
 * explicitly, for addresses that exist only inside the namespaces it made: nothing outside them can
 * reach the relay, and the generators reach nothing else.
 *
 * <p>Needs root and iproute2's {@code ip}. Where namespaces cannot be made, it says so on stderr
 * and is skipped (an assumption with the reason); {@code ScaleOutCliIT} and experiment's ScaleOutIT
 * (N local processes) run everywhere. Everything it creates carries a random per-run tag and is
 * deleted in {@code finally}; nothing else is touched.
 */
class ScaleOutNetnsIT {
  static final int N = 2;

  @TempDir Path dir;

  /** Names and addresses unique to this run. */
  record Net(String tag, String relayNs, List<String> genNs, String bridge, String subnet) {
    static Net fresh() {
      byte[] b = new byte[3];
      ThreadLocalRandom.current().nextBytes(b);
      String tag = HexFormat.of().formatHex(b);
      List<String> gens = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        gens.add("ceil-" + tag + "-g" + i);
      }
      // 10.x.y.0/24: unreachable from outside the namespaces anyway; random so two runs never
      // share even an address in their logs.
      String subnet = "10." + (100 + (b[0] & 0x7f)) + "." + (b[1] & 0xff);
      return new Net(tag, "ceil-" + tag + "-r", gens, "c" + tag + "br", subnet);
    }

    String relayAddress() {
      return subnet + ".1";
    }

    /** Veth ends: at most 15 characters (IFNAMSIZ). */
    String genVeth(int i) {
      return "c" + tag + "g" + i;
    }

    String relayVeth(int i) {
      return "c" + tag + "r" + i;
    }
  }

  @Test
  void generatorsInTheirOwnNamespacesLoadARelayInAnotherAndMergeExactly() throws Exception {
    Net net = Net.fresh();
    List<String> created = new ArrayList<>();
    Process relay = null;
    List<Process> gens = new ArrayList<>();
    try {
      String why = namespacesUnavailable(net.relayNs(), created);
      if (why != null) {
        System.err.println(
            "ScaleOutNetnsIT SKIPPED: cannot make network namespaces here: "
                + why
                + ". The N-local-process tests (ScaleOutCliIT, experiment ScaleOutIT) still ran.");
        Assumptions.abort("cannot make network namespaces: " + why);
      }
      build(net, created);
      relay = startRelay(net);
      String port = awaitReady(relay);
      String url = "ws://" + net.relayAddress() + ":" + port + "/";
      // Generous: two cold JVMs pre-sign and connect on a busy box before the instant.
      Instant startAt = Instant.now().plusSeconds(25).truncatedTo(ChronoUnit.SECONDS);
      List<Path> reports = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        Path report = dir.resolve("segment-" + i + ".json");
        reports.add(report);
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", net.genNs().get(i)));
        cmd.addAll(
            ChildClasspath.command(
                GeneratorMain.class.getName(),
                List.of(),
                List.of(
                    "--duration",
                    "3s",
                    "--warmup",
                    "400ms",
                    "--segment",
                    i + "/" + N,
                    "--start-at",
                    startAt.toString(),
                    "--target",
                    "url=" + url + ",rate=45,conns=2",
                    "--allow-remote",
                    "--lag-bound",
                    "25ms",
                    "--json",
                    report.toString())));
        gens.add(
            new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("generator-" + i + ".log").toFile())
                .start());
      }
      for (int i = 0; i < N; i++) {
        Process g = gens.get(i);
        boolean ended = g.waitFor(180, TimeUnit.SECONDS);
        String log = Files.readString(dir.resolve("generator-" + i + ".log"));
        assertThat(ended).as("generator %d ended; its log:%n%s", i, log).isTrue();
        assertThat(g.exitValue()).as("generator %d exit; its log:%n%s", i, log).isZero();
      }
      for (int i = 0; i < N; i++) {
        GeneratorReport r = Json.read(reports.get(i), GeneratorReport.class);
        // Each process really went over its own veth to the relay's address.
        assertThat(r.targets().get(0).url()).isEqualTo(url);
        assertThat(r.segment()).isEqualTo(i + "/" + N);
      }

      Path merged = dir.resolve("merged.json");
      List<String> args = new ArrayList<>(List.of("merge"));
      reports.forEach(r -> args.add(r.toString()));
      args.addAll(List.of("--json", merged.toString()));
      Outcome m = execute(args);
      assertThat(m.code).as(m.err).isEqualTo(ExitCode.ESTABLISHED);
      GeneratorReport mergedReport = Json.read(merged, GeneratorReport.class);
      GeneratorReport.Result a = mergedReport.aggregate();
      String selfCheck = "the generator's self-check: " + mergedReport.generatorBoundReason();
      // 45/s for 3 s after a 0.4 s warm-up: slots 18..152 of one schedule. 3 s, so a process the
      // machine holds up keeps its slots for 0.3 s past the window (experiment's ScaleOutIT).
      assertThat(a.slotsPlanned()).isEqualTo(135);
      assertThat(a.attempted()).as(selfCheck).isEqualTo(135);
      assertThat(a.accepted()).as(selfCheck).isEqualTo(135);
      assertThat(a.warmupSlotsSent()).as(selfCheck).isEqualTo(18);
      assertThat(a.unacknowledged()).as(selfCheck).isZero();

      // The negative control: one namespace's report alone is not the cell, and merge says so.
      Outcome alone = execute(List.of("merge", reports.get(0).toString(), "--json", "x.json"));
      assertThat(alone.code).as(alone.err).isEqualTo(ExitCode.USAGE);
      assertThat(alone.err).contains("1/2");
    } finally {
      for (Process g : gens) {
        g.destroyForcibly();
      }
      if (relay != null) {
        relay.destroyForcibly();
        relay.waitFor(20, TimeUnit.SECONDS);
      }
      tearDown(net, created);
    }
  }

  record Outcome(int code, String err) {}

  static Outcome execute(List<String> args) {
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true),
            args.toArray(String[]::new));
    return new Outcome(code, err.toString());
  }

  /** Null when a namespace can be made (then it is made: the relay's); else the reason. */
  static String namespacesUnavailable(String probe, List<String> created) {
    if (!"root".equals(System.getProperty("user.name"))) {
      return "not root (user " + System.getProperty("user.name") + ")";
    }
    try {
      Result r = sh("ip", "netns", "add", probe);
      if (r.code != 0) {
        return "'ip netns add' failed: " + r.out.trim();
      }
      created.add(probe);
      return null;
    } catch (IOException e) {
      return "no 'ip' (iproute2) on the PATH: " + e.getMessage();
    }
  }

  /** The relay namespace (made already) with a bridge; a namespace and veth pair per generator. */
  static void build(Net net, List<String> created) throws Exception {
    String r = net.relayNs();
    must("ip", "-n", r, "link", "set", "lo", "up");
    must("ip", "-n", r, "link", "add", net.bridge(), "type", "bridge");
    must("ip", "-n", r, "addr", "add", net.relayAddress() + "/24", "dev", net.bridge());
    must("ip", "-n", r, "link", "set", net.bridge(), "up");
    for (int i = 0; i < N; i++) {
      String g = net.genNs().get(i);
      must("ip", "netns", "add", g);
      created.add(g);
      must("ip", "-n", g, "link", "set", "lo", "up");
      // Made directly inside the two namespaces: no interface of this run ever exists outside.
      must(
          "ip",
          "-n",
          g,
          "link",
          "add",
          net.genVeth(i),
          "type",
          "veth",
          "peer",
          "name",
          net.relayVeth(i),
          "netns",
          r);
      must(
          "ip",
          "-n",
          g,
          "addr",
          "add",
          net.subnet() + "." + (10 + i) + "/24",
          "dev",
          net.genVeth(i));
      must("ip", "-n", g, "link", "set", net.genVeth(i), "up");
      must("ip", "-n", r, "link", "set", net.relayVeth(i), "master", net.bridge());
      must("ip", "-n", r, "link", "set", net.relayVeth(i), "up");
    }
  }

  /** Deletes only the namespaces this run made (their interfaces go with them). */
  static void tearDown(Net net, List<String> created) {
    for (int i = created.size() - 1; i >= 0; i--) {
      try {
        Result r = sh("ip", "netns", "delete", created.get(i));
        if (r.code != 0) {
          System.err.println("ScaleOutNetnsIT: could not delete " + created.get(i) + ": " + r.out);
        }
      } catch (IOException e) {
        System.err.println("ScaleOutNetnsIT: could not delete " + created.get(i) + ": " + e);
      }
    }
  }

  Process startRelay(Net net) throws IOException {
    String jar = System.getProperty("ceiling.reference-relay.jar");
    assertThat(jar).as("ceiling.reference-relay.jar (set by the build)").isNotNull();
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "ip",
                "netns",
                "exec",
                net.relayNs(),
                ChildClasspath.javaExecutable(),
                "-Xmx256m",
                "-Dceiling.relay.bind-address=" + net.relayAddress(),
                "-jar",
                jar,
                "--port",
                "0",
                "--db-port",
                "0",
                "--data-dir",
                dir.resolve("relay-data").toString(),
                "--audit",
                "off",
                "--default-community",
                "a.localhost",
                "--limiter-events-per-sec",
                "1000000",
                "--limiter-window-secs",
                "1",
                "--calibration-runs",
                "20"));
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.PIPE)
        .start();
  }

  /**
   * Generous for a relay that is READY within seconds. A wait that once looked like a relay slow to
   * start was this test's reader blocked in closing the pipe its drain thread was reading; the test
   * still prints the wait when it is long and the relay's threads if it fails.
   */
  private static final long READY_TIMEOUT_S = 120;

  /** The port from the relay's READY line; fails with its output if it never comes. */
  static String awaitReady(Process relay) throws Exception {
    StringBuilder seen = new StringBuilder();
    // Its own thread, not the common pool (one thread on two cores, which another test's task
    // may hold). The reader is not closed on READY: the drain thread goes on reading it, and a
    // close would wait for the reader's lock, which that read holds for as long as the relay runs.
    CompletableFuture<String> port = new CompletableFuture<>();
    BufferedReader r =
        new BufferedReader(new InputStreamReader(relay.getInputStream(), StandardCharsets.UTF_8));
    Thread reader =
        new Thread(
            () -> {
              Pattern ready = Pattern.compile("^READY port=(\\d+)");
              try {
                String line;
                while ((line = r.readLine()) != null) {
                  synchronized (seen) {
                    seen.append(line).append('\n');
                  }
                  Matcher m = ready.matcher(line);
                  if (m.find() && !port.isDone()) {
                    // Keep draining (this thread goes on reading) so the relay never blocks on
                    // a full pipe.
                    port.complete(m.group(1));
                  }
                }
              } catch (IOException e) {
                // The relay ended.
              }
              port.complete(null);
            },
            "relay-output");
    reader.setDaemon(true);
    reader.start();
    long t0 = System.nanoTime();
    String p;
    String threads = "";
    try {
      p = port.get(READY_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      p = null;
      // What the relay was doing when the deadline passed, to find the stall next time.
      try {
        threads = sh("jcmd", Long.toString(relay.pid()), "Thread.print").out();
      } catch (IOException | RuntimeException jcmdFailed) {
        threads = "(jcmd failed: " + jcmdFailed + ")";
      }
    }
    long waitedS = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
    if (waitedS > 30) {
      System.err.println("ScaleOutNetnsIT: the relay took " + waitedS + " s to print READY");
    }
    synchronized (seen) {
      assertThat(p)
          .as(
              "relay READY line within %d s; its output:%n%s%nits threads:%n%s",
              READY_TIMEOUT_S, seen, threads)
          .isNotNull();
    }
    return p;
  }

  record Result(int code, String out) {}

  static Result sh(String... cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(-1, "timed out: " + String.join(" ", cmd));
      }
      return new Result(p.exitValue(), out);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + String.join(" ", cmd), e);
    }
  }

  static void must(String... cmd) throws IOException {
    Result r = sh(cmd);
    if (r.code != 0) {
      throw new IOException(String.join(" ", cmd) + " failed (" + r.code + "): " + r.out.trim());
    }
  }
}
