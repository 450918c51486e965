package dev.ceiling.junit;

import dev.ceiling.core.model.Checks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Which relay {@link RelayRig} brings up for a test class. Immutable and thread-safe.
 *
 * @param profile a built-in profile's name (e.g. {@code "reference"}) or a profile file's path,
 *     relative to the working directory; non-blank
 * @param arm the arm to run, or null for the profile's treatment arm; checked against the profile
 *     when the relay is brought up
 * @param params overrides of the profile's parameters and ports by name (e.g. {@code
 *     exchange_delay_ms -> 0.5}); names and values non-blank; an unknown name fails the class when
 *     the relay is brought up
 * @param reset give the relay a fresh database before the class
 * @param readyTimeout how long the relay may take to become ready, >= 1 s
 * @param freePorts give every profile port that {@code params} does not set a free loopback port
 * @param stateRoot the directory under which each test class gets its own state directory (pid
 *     file, descriptor, relay log, data); relative paths resolve against the working directory
 */
public record RelaySpec(
    String profile,
    String arm,
    Map<String, String> params,
    boolean reset,
    Duration readyTimeout,
    boolean freePorts,
    Path stateRoot) {

  /** Where state directories go by default: {@code target/ceiling-rig} (Maven's build dir). */
  public static final Path DEFAULT_STATE_ROOT = Path.of("target", "ceiling-rig");

  /**
   * Checks every field and reports every problem at once.
   *
   * @throws IllegalArgumentException naming each invalid field and its value
   */
  public RelaySpec {
    Checks problems = new Checks();
    problems.require(
        profile != null && !profile.isBlank(),
        "profile must be a built-in name or a file path, got '" + profile + "'");
    problems.require(
        arm == null || !arm.isBlank(),
        "arm must be null (the treatment arm) or non-blank, got '" + arm + "'");
    if (params == null) {
      problems.add("params must not be null (use an empty map)");
    } else {
      params.forEach(
          (k, v) -> {
            if (k == null || k.isBlank() || v == null || v.isBlank()) {
              problems.add("params must have non-blank names and values, got " + k + "=" + v);
            }
          });
    }
    problems.require(
        readyTimeout != null && readyTimeout.compareTo(Duration.ofSeconds(1)) >= 0,
        "ready_timeout must be >= 1 s, got " + readyTimeout);
    problems.require(stateRoot != null, "state_root must not be null");
    problems.orThrow();
    params = Collections.unmodifiableMap(new TreeMap<>(params));
  }

  /**
   * The given profile on its treatment arm: reset, 60 s ready timeout, free ports, state under
   * {@link #DEFAULT_STATE_ROOT}.
   */
  public static RelaySpec of(String profile) {
    return new RelaySpec(
        profile, null, Map.of(), true, Duration.ofSeconds(60), true, DEFAULT_STATE_ROOT);
  }

  /**
   * The spec an annotation describes.
   *
   * @throws IllegalArgumentException listing every malformed {@code name=value} and invalid field
   */
  public static RelaySpec from(WithRelay a) {
    Objects.requireNonNull(a, "annotation must not be null");
    return new RelaySpec(
        a.profile(),
        a.arm().isEmpty() ? null : a.arm(),
        parseParams(a.params()),
        a.reset(),
        Duration.ofSeconds(a.readyTimeoutSeconds()),
        a.freePorts(),
        DEFAULT_STATE_ROOT);
  }

  /**
   * Parses {@code name=value} pairs.
   *
   * @throws IllegalArgumentException listing every pair that is not {@code name=value} or repeats a
   *     name
   */
  public static Map<String, String> parseParams(String... pairs) {
    Map<String, String> out = new TreeMap<>();
    Checks problems = new Checks();
    for (String p : pairs) {
      int eq = p == null ? -1 : p.indexOf('=');
      if (eq <= 0 || eq == p.length() - 1) {
        problems.add("params entries must look like name=value, got '" + p + "'");
      } else if (out.put(p.substring(0, eq).trim(), p.substring(eq + 1).trim()) != null) {
        problems.add(
            "params must name each parameter once, got '" + p.substring(0, eq) + "' twice");
      }
    }
    problems.orThrow();
    return out;
  }

  /** This spec on another arm ({@code null}: the treatment arm). */
  public RelaySpec withArm(String value) {
    return new RelaySpec(profile, value, params, reset, readyTimeout, freePorts, stateRoot);
  }

  /** This spec with these parameter/port overrides instead of its own. */
  public RelaySpec withParams(Map<String, String> value) {
    return new RelaySpec(profile, arm, value, reset, readyTimeout, freePorts, stateRoot);
  }

  /** This spec with or without a fresh database. */
  public RelaySpec withReset(boolean value) {
    return new RelaySpec(profile, arm, params, value, readyTimeout, freePorts, stateRoot);
  }

  /** This spec with another ready timeout (>= 1 s). */
  public RelaySpec withReadyTimeout(Duration value) {
    return new RelaySpec(profile, arm, params, reset, value, freePorts, stateRoot);
  }

  /** This spec with or without free-port allocation. */
  public RelaySpec withFreePorts(boolean value) {
    return new RelaySpec(profile, arm, params, reset, readyTimeout, value, stateRoot);
  }

  /** This spec with state directories under another root. */
  public RelaySpec withStateRoot(Path value) {
    return new RelaySpec(profile, arm, params, reset, readyTimeout, freePorts, value);
  }
}
