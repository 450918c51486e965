package dev.ceiling.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.testing.ChildClasspath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A name the hosts file maps to 127.0.0.1 is still refused, while {@code localhost} is loopback:
 * the rule reads spellings, never the resolver. The hosts file is the child JVM's own ({@code
 * -Djdk.net.hosts.file}, which JDK 17's resolver honours), so /etc/hosts is never touched; the
 * child proves the name really resolves there, so the refusal is the rule's and not a failed
 * lookup.
 */
class LoopbackHostsFileIT {
  @TempDir Path dir;

  private List<String> child(String hostsFile, String... names) throws Exception {
    Path hosts = dir.resolve("hosts");
    Files.writeString(hosts, hostsFile, StandardCharsets.US_ASCII);
    Path out = dir.resolve("out");
    Process p =
        new ProcessBuilder(
                ChildClasspath.command(
                    HostsFileChild.class.getName(),
                    List.of("-Djdk.net.hosts.file=" + hosts),
                    List.of(names)))
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("the child ended").isTrue();
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", lines)).isZero();
    return lines;
  }

  @Test
  void aNameTheHostsFileMapsToLoopbackResolvesThereAndIsStillRefused() throws Exception {
    List<String> lines = child("127.0.0.1 myrelay.test\n", "myrelay.test", "localhost");

    // The JVM resolves the name, through the temp hosts file alone ...
    assertThat(lines).contains("myrelay.test.resolves=127.0.0.1");
    // ... and the rule still refuses it.
    assertThat(lines).contains("myrelay.test.loopback=false");
    // localhost is loopback by its spelling, and its address is chosen by a trial connection.
    assertThat(lines).contains("localhost.loopback=true");
    assertThat(lines).contains("localhost.connects=127.0.0.1");
  }

  @Test
  void withoutTheHostsFileEntryTheNameDoesNotResolve() throws Exception {
    // Partner: the property is what made the name resolve above (so the first test's resolution
    // is the hosts file's doing, not this machine's DNS).
    List<String> lines = child("127.0.0.1 other.test\n", "myrelay.test");

    assertThat(lines).contains("myrelay.test.resolves=unknown");
    assertThat(lines).contains("myrelay.test.loopback=false");
  }
}
