package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ceiling.core.json.Json;
import dev.ceiling.rig.ReferenceRelayJar;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.proxy.EchoServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The known answer of the sweep per link, by the wire: the two-link test relay (reference-relay's
 * test code, {@code TwoLinkRelay}), whose audit path makes exactly 2 round trips to one TCP echo
 * service (link 'a') and then 3 to another (link 'b') per event, each link through its own delay
 * proxy, each swept in turn with the other at zero added delay. The proxies' turns per audit entry
 * read 2 on 'a' and 3 on 'b'. A count of turns does not depend on the machine's load, so this is
 * the test command's; the timing fit's reading of the same relay needs a quiet machine
 * (TwoLinkTimingIT).
 *
 * <p>Short cells at a rate below the relay's ceiling: nothing here times a wait, so the cells need
 * not saturate, and their backlogs drain at once. 2 delays x 2 repeats of 1 s windows per link:
 * about 40 s, and 15 s more for the mutant.
 */
class TwoLinkSweepIT {
  @TempDir Path dir;

  @Test
  void eachLinksProxyCountsItsOwnRoundTripsAndTheTableHasARowPerLink() throws Exception {
    List<String> planSeenAtEachLink = new ArrayList<>();
    Path out = dir.resolve("out");
    LinkSweepsResult r =
        withEchoes(
            (a, b) ->
                cheapSweep(out, a, b, 2, List.of("a", "b"))
                    .progress(planReader(out, planSeenAtEachLink))
                    .runLinks());
    String figures = figures(r);
    System.out.println("TwoLinkSweepIT: " + figures);
    // The plan of every link, with each link's declared count, is on disk before the first cell.
    assertThat(planSeenAtEachLink).as(figures).hasSize(2);
    assertThat(planSeenAtEachLink.get(0)).as(figures).contains("\"a\" : 2.0", "\"b\" : 3.0");
    assertThat(r.report().complete()).as(figures).isTrue();
    assertThat(r.report().links()).extracting(LinkSweepsReport.Row::link).containsExactly("a", "b");
    for (String link : List.of("a", "b")) {
      assertThat(out.resolve(link).resolve(DelaySweep.REPORT_FILE)).exists();
    }
    assertWireCounts(r, Map.of("a", 2.0, "b", 3.0), figures);
    // Partner: the declared counts swapped fail the same assertion.
    assertThatThrownBy(() -> assertWireCounts(r, Map.of("a", 3.0, "b", 2.0), figures))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void aRelayThatMakesThreeRoundTripsOnLinkAFailsTheKnownAnswerOfTwo() throws Exception {
    Path out = dir.resolve("mutant");
    LinkSweepsResult r = withEchoes((a, b) -> cheapSweep(out, a, b, 3, List.of("a")).runLinks());
    String figures = figures(r);
    assertThatThrownBy(() -> assertWireCounts(r, Map.of("a", 2.0), figures))
        .isInstanceOf(AssertionError.class);
    // What it does read instead: its own three.
    assertWireCounts(r, Map.of("a", 3.0), figures);
  }

  /**
   * Ctrl-C as a link starts (after the run's check for a stop, before that link's sweep exists):
   * the link's sweep stops before its relay, no further link starts, and links.json says the run is
   * incomplete. Once, a stop in that window was missed and the whole link was swept. The partner, a
   * stop as the second link starts, keeps the first link's whole sweep and still stops there.
   */
  @Test
  void aStopAsALinkStartsSweepsNothingMoreAndTheFileSaysItIsIncomplete() throws Exception {
    LinkSweepsResult first = stopAtLink(dir.resolve("stop-at-a"), 1);
    String figures = figures(first);
    assertThat(first.sweeps().keySet()).as(figures).containsExactly("a");
    assertThat(first.sweeps().get("a").report()).as(figures).isNull();
    assertThat(first.sweeps().get("a").problems())
        .as(figures)
        .contains("interrupted before the relay");
    assertThat(first.report().complete()).as(figures).isFalse();
    LinkSweepsReport onDisk = Json.read(first.file(), LinkSweepsReport.class);
    assertThat(onDisk.complete()).isFalse();
    assertThat(onDisk.plan().links()).containsExactly("a", "b");
    // Partner: a stop as link b starts keeps link a's whole sweep.
    LinkSweepsResult second = stopAtLink(dir.resolve("stop-at-b"), 2);
    String figures2 = figures(second);
    assertThat(second.sweeps().keySet()).as(figures2).containsExactly("a", "b");
    assertThat(second.sweeps().get("a").report().cells()).as(figures2).hasSize(4);
    assertThat(second.sweeps().get("b").report()).as(figures2).isNull();
    assertThat(second.report().complete()).as(figures2).isFalse();
  }

  /** The cheap two-link sweep, stopped from its progress as link number {@code index} starts. */
  private static LinkSweepsResult stopAtLink(Path out, int index) throws Exception {
    java.util.concurrent.atomic.AtomicReference<LinkSweeps> run =
        new java.util.concurrent.atomic.AtomicReference<>();
    return withEchoes(
        (a, b) -> {
          run.set(
              cheapSweep(out, a, b, 2, List.of("a", "b"))
                  .progress(
                      new DelaySweepProgress() {
                        @Override
                        public void link(String link, int i, int of) {
                          if (i == index) {
                            run.get().interrupt();
                          }
                        }
                      })
                  .buildLinks());
          return run.get().run();
        });
  }

  /**
   * Each link's wire count over every cell of its sweep, used or not (a count of turns is right in
   * a cell the timing rules exclude), within 0.25 of {@code expected}.
   */
  static void assertWireCounts(LinkSweepsResult r, Map<String, Double> expected, String figures) {
    expected.forEach(
        (link, k) -> {
          DelaySweepReport s = r.sweeps().get(link).report();
          assertThat(s).as(figures).isNotNull();
          double turns = 0;
          double events = 0;
          for (DelaySweepCell c : s.cells()) {
            if (c.auditEvents() != null) {
              turns += c.link().turns();
              events += c.auditEvents();
            }
          }
          System.out.printf(
              "TwoLinkSweepIT: link %s: %.0f turns / %.0f entries = %.3f%n",
              link, turns, events, turns / events);
          assertThat(events).as("audit entries on link %s; %s", link, figures).isGreaterThan(20);
          assertThat(turns / events).as("link %s; %s", link, figures).isCloseTo(k, within(0.25));
          LinkSweepsReport.Row row =
              r.report().links().stream().filter(w -> w.link().equals(link)).findFirst().get();
          assertThat(row.wireTurnsPerEventAllCells()).isCloseTo(turns / events, within(1e-9));
        });
  }

  /** Reads links.json as each link starts. */
  private static DelaySweepProgress planReader(Path out, List<String> seen) {
    return new DelaySweepProgress() {
      @Override
      public void link(String link, int index, int of) {
        try {
          seen.add(Files.readString(out.resolve(LinkSweeps.FILE)));
        } catch (java.io.IOException e) {
          seen.add("unreadable: " + e);
        }
      }
    };
  }

  /** A sweep per link that times nothing it asserts: 2 delays x 2 repeats of 1 s, unsaturated. */
  private static DelaySweepOptions.Builder cheapSweep(
      Path out, int echoA, int echoB, int exchangesA, List<String> links) throws Exception {
    return builder(out, echoA, echoB, exchangesA)
        .links(links)
        .expectRoundTripsByLink(links.size() == 2 ? Map.of("a", 2.0, "b", 3.0) : Map.of())
        .delaysMs(List.of(1.0, 2.0))
        .repeats(2)
        .duration(Duration.ofSeconds(1))
        .rate(40.0)
        .sweepOptions(
            SweepOptions.defaults(out.resolve("unused.jsonl"))
                .withWarmup(Duration.ofMillis(500))
                .withGrace(Duration.ofMillis(500))
                .withSendLagBound(Duration.ofMillis(100))
                .withDrainTimeout(Duration.ofSeconds(20)));
  }

  /** The two-link relay's profile with the test's ports and classpath. */
  static DelaySweepOptions.Builder builder(Path out, int echoA, int echoB, int exchangesA)
      throws Exception {
    Path profile = Path.of(TwoLinkSweepIT.class.getResource("two-link-relay.json").toURI());
    return DelaySweep.builder()
        .profile(RelayProfile.load(profile))
        .seed(7)
        .relayOverrides(
            Map.of(
                "port", Integer.toString(ScaleOutIT.freePort()),
                "db_port", Integer.toString(ScaleOutIT.freePort()),
                "echo_a_port", Integer.toString(echoA),
                "echo_b_port", Integer.toString(echoB),
                "exchanges_a", Integer.toString(exchangesA),
                "relay_classpath", relayClasspath()))
        .outDir(out);
  }

  /** A test's sweep with two echo services up for its length. */
  interface Sweep {
    LinkSweepsResult run(int echoA, int echoB) throws Exception;
  }

  static LinkSweepsResult withEchoes(Sweep s) throws Exception {
    try (EchoServer a = new EchoServer();
        EchoServer b = new EchoServer()) {
      return s.run(a.address().getPort(), b.address().getPort());
    }
  }

  /** The reference relay's jar and its test classes, where the two-link relay lives. */
  static String relayClasspath() throws Exception {
    Path jar = ReferenceRelayJar.locate().toAbsolutePath();
    Path testClasses = jar.getParent().resolve("test-classes");
    assertThat(testClasses.resolve("dev/ceiling/relay/TwoLinkRelay.class"))
        .as("the two-link test relay is compiled (reference-relay's test classes)")
        .exists();
    return jar + File.pathSeparator + testClasses;
  }

  /** Everything measured, for a failure's message. */
  static String figures(LinkSweepsResult r) {
    StringBuilder s = new StringBuilder("outcome " + r.outcome() + ", problems " + r.problems());
    r.report().table().forEach(l -> s.append('\n').append(l));
    r.sweeps()
        .forEach(
            (l, sr) -> s.append("\nlink ").append(l).append(": ").append(DelaySweepIT.figures(sr)));
    return s.append('\n').append(Json.write(r.report().plan())).toString();
  }
}
