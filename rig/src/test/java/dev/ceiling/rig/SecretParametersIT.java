package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.rig.internal.Secrets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parameter used only to set an environment variable (a database password) is never in clear in
 * the descriptor, which {@code rig up} prints and journals and reports copy. A real fake relay gets
 * the values through its environment; the descriptor holds digests. The doctored partner is the
 * same profile without the explicit {@code secret_parameters} flag: the unmarked {@code api_key} is
 * then in clear, so the flag is what redacts it (a name with "password" is secret either way).
 */
class SecretParametersIT {
  static final String PASSWORD = "hunter2-db-pass";
  static final String API_KEY = "k-4711-api";

  @TempDir Path dir;

  static RelayProfile profile(int port, boolean flagged) throws RigException {
    String json =
        Fakes.profileJson("ready", port)
            .replace(
                "\"parameters\": {\"mode\": \"ready\"},",
                "\"parameters\": {\"mode\": \"ready\", \"db_password\": \""
                    + PASSWORD
                    + "\", \"api_key\": \""
                    + API_KEY
                    + "\"},"
                    + (flagged ? " \"secret_parameters\": [\"api_key\"]," : "")
                    + " \"environment\": {\"DB_PASSWORD\": \"${db_password}\","
                    + " \"API_KEY\": \"${api_key}\"},");
    assertThat(json).contains("DB_PASSWORD");
    return ProfileReader.read(json, "secret-profile", null);
  }

  @Test
  void secretValuesReachTheRelayButNotTheDescriptor() throws Exception {
    RelayProfile p = profile(Fakes.freePort(), true);
    assertThat(p.isSecret("db_password")).isTrue();
    assertThat(p.isSecret("api_key")).isTrue();
    assertThat(p.isSecret("mode")).isFalse();
    try (RigHandle h = Fakes.real().up(Fakes.options(p, dir.resolve("s")))) {
      try {
        String descriptor = Files.readString(h.descriptorFile());
        assertThat(descriptor).doesNotContain(PASSWORD).doesNotContain(API_KEY);
        assertThat(h.descriptor().relayInfo())
            .containsEntry("parameter.db_password", Secrets.redacted("db_password", PASSWORD))
            .containsEntry("parameter.api_key", Secrets.redacted("api_key", API_KEY))
            .containsEntry("parameter.mode", "ready");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(h.descriptorFile())))
            .isEqualTo("rw-------");
        // The relay itself got the value: its environment carries it.
        String env =
            Files.readString(Path.of("/proc", Long.toString(h.descriptor().relayPid()), "environ"));
        assertThat(env).contains("DB_PASSWORD=" + PASSWORD).contains("API_KEY=" + API_KEY);
      } finally {
        h.stop();
        Fakes.kill(h.descriptor().relayPid());
      }
    }
  }

  @Test
  void withoutTheFlagAnUnmarkedNameIsInClear() throws Exception {
    RelayProfile p = profile(Fakes.freePort(), false);
    assertThat(p.isSecret("api_key")).isFalse();
    try (RigHandle h = Fakes.real().up(Fakes.options(p, dir.resolve("s")))) {
      try {
        String descriptor = Files.readString(h.descriptorFile());
        assertThat(descriptor).contains(API_KEY).doesNotContain(PASSWORD);
      } finally {
        h.stop();
        Fakes.kill(h.descriptor().relayPid());
      }
    }
  }

  @Test
  void theDigestIsStableAndTellsValuesApart() {
    assertThat(Secrets.redacted("db_password", "a"))
        .isEqualTo(Secrets.redacted("db_password", "a"));
    assertThat(Secrets.redacted("db_password", "a"))
        .isNotEqualTo(Secrets.redacted("db_password", "b"));
    assertThat(Secrets.redacted("db_password", "a")).isNotEqualTo(Secrets.redacted("other", "a"));
    assertThat(Secrets.scrub("x hunter2 y", Map.of("pw", "hunter2"))).isEqualTo("x <secret pw> y");
  }

  @Test
  void aSecretFlagNamingNoParameterIsAProfileError() throws Exception {
    String json =
        Fakes.profileJson("ready", 1)
            .replace(
                "\"parameters\": {\"mode\": \"ready\"},",
                "\"parameters\": {\"mode\": \"ready\"}, \"secret_parameters\": [\"nope\"],");
    RigException e = LifecycleIT.catchRig(() -> ProfileReader.read(json, "bad", null));
    assertThat(e.getMessage()).contains("$.secret_parameters[0]: 'nope' is not a parameter");
  }
}
