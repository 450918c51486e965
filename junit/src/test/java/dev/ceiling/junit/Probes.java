package dev.ceiling.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** What a test can observe of a relay from outside: its health answer and its process. */
final class Probes {
  private Probes() {}

  /** The health URL's HTTP status, or -1 when nothing answered within 2 s. */
  static int healthStatus(String url) throws InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    try {
      return client
          .send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    }
  }

  /** Fails unless no live process has this pid. */
  static void assertGone(long pid) {
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
        .as("process %d must be gone", pid)
        .isFalse();
  }
}
