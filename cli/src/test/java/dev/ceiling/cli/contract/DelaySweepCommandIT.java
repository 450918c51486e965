package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.cli.report.DelaySweepHtmlTest;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.testing.FreePorts;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.experiment.LinkSweepsReport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ceiling sensitivity}'s happy path as a user runs it, on the real reference relay through
 * the proxy on its H2 link: two delays x two short repeats. Two delays are too few for the
 * lack-of-fit test, so the line cannot be shown to hold and the documented outcome is exit 1 with
 * the answer first, the points, and sensitivity.json holding the plan and all four cells.
 *
 * <p>That sweep runs the built-in linked profile with every URL and upstream written with a
 * loopback name ({@code localhost}, {@code a.localhost}), as a relay's README writes them, so the
 * one run also shows such a profile swept like one written with addresses (which the resume and
 * Ctrl-C tests run): a second sweep only for the names measured the same four cells again. The
 * partner: the same profile with a name outside {@code .localhost} exits before any relay starts,
 * naming the field.
 */
class DelaySweepCommandIT {
  @TempDir Path dir;

  /** The built-in linked profile written with {@code host} for 127.0.0.1, in {@code dir}. */
  private Path profile(String host) throws Exception {
    String json;
    try (InputStream in =
        ShortSweep.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference-linked.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String local =
        json.replace("http://127.0.0.1:${port}/", "http://" + host + ":${port}/")
            .replace(
                "\"url\": \"ws://127.0.0.1:${port}/\", \"host_header\": \"a.localhost:${port}\"",
                "\"url\": \"ws://a.localhost:${port}/\"")
            .replace(
                "\"target\": \"127.0.0.1:${db_port}\"", "\"target\": \"" + host + ":${db_port}\"");
    assertThat(local)
        .contains("http://" + host + ":${port}/health", "ws://a.localhost:", host + ":${db_port}");
    return Files.writeString(dir.resolve(host + ".json"), local, StandardCharsets.UTF_8);
  }

  @Test
  void twoDelaysExitOneWithTheAnswerFirstAndEveryCellInTheFile() throws Exception {
    Path out = dir.resolve("out");
    Cli.Outcome o =
        shortSweep(
            "--profile",
            profile("localhost").toString(),
            "--seed",
            "3",
            "--identities",
            "3",
            "--out",
            out.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    String first = o.out().lines().findFirst().orElse("");
    assertThat(first).as(o.toString()).contains("link 'db'");
    assertThat(o.out()).contains("delay_ms", "file: ");
    assertThat(o.err()).as(o.toString()).contains("plan: link 'db', delays [2.0, 4.0] ms");
    Path file = out.resolve("sensitivity.json");
    assertThat(file).exists();
    var tree = Json.mapper().readTree(Files.readString(file));
    assertThat(tree.get("schema").asText()).isEqualTo("ceiling-sensitivity/1");
    assertThat(tree.get("plan").get("cells")).hasSize(4);
    assertThat(tree.get("measurement").get("identities").asInt()).isEqualTo(3);
    assertThat(tree.get("cells")).as(o.toString()).hasSize(4);
    assertThat(tree.get("complete").asBoolean()).isTrue();
    assertThat(tree.get("established").asBoolean()).isFalse();
    // The page beside it: named on the console, the answer first, every cell a row of its table.
    Path html = out.resolve("sensitivity.html");
    assertThat(o.out()).contains("html: " + html);
    DelaySweepReport report = Json.read(file, DelaySweepReport.class);
    assertThat(DelaySweepHtmlTest.missing(Files.readString(html), report)).isEmpty();
  }

  /**
   * A profile with two upstreams and no --link: each link swept in turn on a relay of its own, then
   * links.json and links.html beside a directory per link. Counted, not timed: 'db' carries H2's
   * turns per entry and 'cache', which the relay never dials, none.
   */
  @Test
  void twoLinksAreEachSweptWithTheirTableAndAPagePerLink() throws Exception {
    Path out = dir.resolve("links");
    String profile = ShortSweep.twoLinks(dir).toString();
    Cli.Outcome o = shortSweep("--profile", profile, "--seed", "3", "--out", out.toString());
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.NOT_ESTABLISHED);
    assertThat(o.err()).as(o.toString()).contains("each of links [db, cache] in turn");
    assertThat(o.out())
        .as(o.toString())
        .contains("link 'db': ", "link 'cache': ", "file: " + out.resolve("links.json"))
        .contains("html: " + out.resolve("links.html"));
    LinkSweepsReport table = Json.read(out.resolve("links.json"), LinkSweepsReport.class);
    assertThat(table.complete()).as(o.toString()).isTrue();
    assertThat(table.links()).extracting(LinkSweepsReport.Row::link).containsExactly("db", "cache");
    LinkSweepsReport.Row db = table.links().get(0);
    LinkSweepsReport.Row cache = table.links().get(1);
    assertThat(db.wireTurnsPerEventAllCells()).as(o.toString()).isGreaterThan(4);
    assertThat(cache.wireTurnsPerEventAllCells()).as(o.toString()).isZero();
    String html = Files.readString(out.resolve("links.html"));
    for (String link : new String[] {"db", "cache"}) {
      Path file = out.resolve(link).resolve("sensitivity.json");
      DelaySweepReport report = Json.read(file, DelaySweepReport.class);
      assertThat(report.cells()).as(link).hasSize(4);
      assertThat(report.plan().link()).isEqualTo(link);
      Path page = out.resolve(link).resolve("sensitivity.html");
      assertThat(DelaySweepHtmlTest.missing(Files.readString(page), report)).isEmpty();
      assertThat(html).contains("<a href=\"" + link + "/sensitivity.html\">" + link + "</a>");
    }
  }

  @Test
  void aNameOutsideDotLocalhostIsRefusedBeforeAnyRelayStarts() throws Exception {
    Cli.Outcome o =
        shortSweep(
            "--profile",
            profile("localhost.evil.com").toString(),
            "--out",
            dir.resolve("refused").toString());

    // The rig refuses the profile as it starts the relay: "the relay did not start", exit 3, as
    // experiment exits for the same refusal (HostsAliasRefusedIT); nothing is measured, and the
    // field and the host are named in the message, never an exception's class.
    assertThat(o.code()).as(o.toString()).isEqualTo(ExitCode.INFRASTRUCTURE);
    assertThat(o.err()).as(o.toString()).doesNotContain("Exception");
    assertThat(o.err())
        .as(o.toString())
        .contains("$.upstreams[0].target must point at loopback (")
        .contains("got localhost.evil.com:");
    assertThat(dir.resolve("refused").resolve("sensitivity.json")).doesNotExist();
  }

  /** The short sweep (two repeats, a queue of 20) on free ports, then {@code more}. */
  private static Cli.Outcome shortSweep(String... more) throws IOException {
    return run(
        ShortSweep.args(2, FreePorts.one(), FreePorts.one(), 20, more).toArray(String[]::new));
  }
}
