package dev.ceiling.cli.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.cli.ExitCode;
import dev.ceiling.core.testing.FreePorts;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A name that a hosts file maps to 127.0.0.1 is still refused by {@code generate}, {@code
 * experiment} and {@code sensitivity}, run as a user runs them (a child JVM, here with its own
 * hosts file through {@code -Djdk.net.hosts.file}, so /etc/hosts is never touched): the one
 * loopback rule reads spellings, never the resolver, where {@code localhost} and {@code
 * a.localhost} are accepted (GenerateLocalhostIT, DelaySweepCommandIT, ExperimentLocalhostIT). That
 * the JVM option really makes the name resolve to 127.0.0.1 is LoopbackHostsFileIT's (core), with
 * its partner without the entry. The rig refuses such a profile as it starts the relay: {@code
 * experiment} and {@code sensitivity} both exit 3 (the relay did not start), naming the field and
 * the name, and measure nothing.
 */
class HostsAliasRefusedIT {
  private static final String NAME = "myrelay.test";

  @TempDir Path dir;
  Child child;

  @AfterEach
  void cleanUp() throws Exception {
    if (child != null) {
      child.killIfAlive();
    }
  }

  private List<String> jvm() throws Exception {
    Path hosts = dir.resolve("hosts");
    Files.writeString(hosts, "127.0.0.1 " + NAME + "\n", StandardCharsets.US_ASCII);
    return List.of("-Djdk.net.hosts.file=" + hosts);
  }

  private Child run(String name, List<String> args) throws Exception {
    child = Child.start(dir, name, jvm(), args);
    return child;
  }

  @Test
  void generateRefusesTheAliasInOneLine() throws Exception {
    Child c =
        run(
            "generate",
            List.of(
                "generate",
                "--duration",
                "1s",
                "--target",
                "url=ws://" + NAME + ":" + FreePorts.one() + "/,rate=20"));
    assertThat(c.await(Duration.ofMinutes(3))).as(c.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(c.err().lines()).as(c.toString()).hasSize(1);
    assertThat(c.err())
        .startsWith("error: target 1 host '" + NAME + "' is not loopback (")
        .contains("refusing without --allow-remote")
        .doesNotContain("connects to");
  }

  /** The built-in linked reference profile (one link, 'db') with its health URL on the alias. */
  private Path aliasedProfile() throws Exception {
    String json;
    try (InputStream in =
        getClass().getResourceAsStream("/dev/ceiling/rig/profiles/reference-linked.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String aliased =
        json.replace(
            "\"health_url\": \"http://127.0.0.1:${port}/health\"",
            "\"health_url\": \"http://" + NAME + ":${port}/health\"");
    assertThat(aliased).contains("http://" + NAME + ":${port}/health");
    return Files.writeString(dir.resolve("aliased.json"), aliased, StandardCharsets.UTF_8);
  }

  private void assertRefusedAtStart(Child c, Path out, String file) throws Exception {
    assertThat(c.await(Duration.ofMinutes(3))).as(c.toString()).isEqualTo(ExitCode.INFRASTRUCTURE);
    assertThat(c.err())
        .as(c.toString())
        .contains("health_url must point at loopback (")
        .contains(NAME)
        .doesNotContain("Exception");
    assertThat(out.resolve(file)).doesNotExist();
  }

  @Test
  void experimentAndSensitivityRefuseAProfileWithTheAliasAndAgreeOnTheExit() throws Exception {
    Path profile = aliasedProfile();
    List<String> params =
        List.of(
            "--profile",
            profile.toString(),
            "--param",
            "port=" + FreePorts.one(),
            "--param",
            "db_port=" + FreePorts.one());
    Path ab = dir.resolve("ab");
    List<String> experiment =
        new java.util.ArrayList<>(
            List.of(
                "experiment",
                "--out",
                ab.toString(),
                "--rates",
                "30",
                "--repeats",
                "2",
                "--duration",
                "1"));
    experiment.addAll(params);
    assertRefusedAtStart(run("experiment", experiment), ab, "report.json");

    Path sweep = dir.resolve("sweep");
    List<String> sensitivity =
        new java.util.ArrayList<>(
            List.of(
                "sensitivity",
                "--out",
                sweep.toString(),
                "--delays",
                "2,4",
                "--repeats",
                "2",
                "--duration",
                "1",
                "--rate",
                "45"));
    sensitivity.addAll(params);
    assertRefusedAtStart(run("sensitivity", sensitivity), sweep, "sensitivity.json");
  }
}
