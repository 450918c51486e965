package dev.ceiling.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.json.Json;
import dev.ceiling.generator.GeneratorReport;
import dev.ceiling.generator.testing.TestRelay;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateCommandIT {

  @Test
  void writesOneJsonReportAndProgressOnStderr(@TempDir Path dir) throws Exception {
    try (TestRelay relay = new TestRelay(new TestRelay.Behavior() {})) {
      Path json = dir.resolve("report.json");
      GenerateCommandTest.Outcome o =
          GenerateCommandTest.run(
              "--duration",
              "500ms",
              "--lag-bound",
              "200ms",
              "--json",
              json.toString(),
              "--target",
              "url="
                  + relay.url()
                  + ",host=b.localhost:"
                  + relay.port
                  + ",rate=40,conns=2,tag=h:bench,identities=3,content=100");
      assertThat(o.code()).as(o.err()).isZero();
      assertThat(o.out()).isEmpty();
      assertThat(o.err()).contains("generate: clock starts at", "generate: done: sent=");
      GeneratorReport r = Json.read(json, GeneratorReport.class);
      assertThat(r.aggregate().slotsPlanned()).isEqualTo(20);
      // On a saturated box a slot can miss the send deadline; what was sent must be accepted.
      assertThat(r.aggregate().accepted()).isEqualTo(r.aggregate().attempted()).isPositive();
      assertThat(r.targets())
          .singleElement()
          .satisfies(
              t -> {
                assertThat(t.community()).isEqualTo("b.localhost:" + relay.port);
                assertThat(t.hostHeader()).isEqualTo("b.localhost:" + relay.port);
              });
      assertThat(relay.hosts).containsOnly("b.localhost:" + relay.port);
      assertThat(Files.readString(json)).contains("\"generator_bound\" : ");
    }
  }

  /**
   * A password in the URL's user-info and a token in its query reach the relay but no output: not
   * stdout, not the stderr clock and progress lines, not the report's targets[].url or config. The
   * partner assertion finds the same URL in the report, redacted, so the check is not passing on a
   * report that simply lost the URL.
   */
  @Test
  void credentialsInTheTargetUrlAreNeverPrintedNorStored(@TempDir Path dir) throws Exception {
    try (TestRelay relay = new TestRelay(new TestRelay.Behavior() {})) {
      Path json = dir.resolve("report.json");
      String url = "ws://user:hunter2@127.0.0.1:" + relay.port + "/?auth=s3cr3t&room=a";
      GenerateCommandTest.Outcome o =
          GenerateCommandTest.run(
              "--duration",
              "500ms",
              "--lag-bound",
              "200ms",
              "--json",
              json.toString(),
              "--target",
              "url=" + url + ",rate=20");
      assertThat(o.code()).as(o.err()).isZero();
      String report = Files.readString(json);
      for (String secret : new String[] {"hunter2", "s3cr3t"}) {
        assertThat(o.out()).doesNotContain(secret);
        assertThat(o.err()).doesNotContain(secret);
        assertThat(report).doesNotContain(secret);
      }
      assertThat(report)
          .contains("ws://redacted@127.0.0.1:" + relay.port + "/?auth=redacted&room=a");
      assertThat(Json.read(json, GeneratorReport.class).aggregate().accepted()).isPositive();
    }
  }
}
