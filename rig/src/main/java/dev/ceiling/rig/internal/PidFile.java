package dev.ceiling.rig.internal;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.Checks;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The rig's claim on a process: pid, start instant and exact command line (which carries the unique
 * rig id). All three must match the live process before the rig sends it any signal.
 *
 * @param schemaVersion 1
 * @param rigId the unique rig id, also an argument on {@code command}
 * @param profile the profile's name
 * @param pid the relay's pid, > 0
 * @param startInstant the relay's start instant as the OS reported it just after launch
 * @param command the relay's exact argv as the OS reported it just after launch
 * @param ports the relay's ports by name
 * @param healthUrl the relay's health URL
 * @param log the relay's log file
 */
public record PidFile(
    int schemaVersion,
    String rigId,
    String profile,
    long pid,
    Instant startInstant,
    List<String> command,
    Map<String, Integer> ports,
    String healthUrl,
    String log) {

  public static final String FILE_NAME = "relay.pid.json";

  public PidFile {
    if (schemaVersion != 1) {
      throw new IllegalArgumentException("schema_version must be 1, got " + schemaVersion);
    }
    Checks checks = new Checks();
    checks.notBlank("rig_id", rigId);
    checks.notBlank("profile", profile);
    if (pid <= 0) {
      checks.add("pid must be > 0, got " + pid);
    }
    Objects.requireNonNull(startInstant, "start_instant must not be null");
    command = List.copyOf(Objects.requireNonNull(command, "command must not be null"));
    if (command.isEmpty()) {
      checks.add("command must not be empty, got []");
    }
    ports = new TreeMap<>(Objects.requireNonNull(ports, "ports must not be null"));
    checks.notBlank("health_url", healthUrl);
    checks.notBlank("log", log);
    checks.orThrow();
  }

  public static Path in(Path stateDir) {
    return stateDir.resolve(FILE_NAME);
  }

  public static PidFile read(Path file) throws ReportFormatException {
    return Json.read(file, PidFile.class);
  }

  public void write(Path file) throws IOException {
    OwnerOnlyFiles.write(file, Json.write(this));
  }
}
