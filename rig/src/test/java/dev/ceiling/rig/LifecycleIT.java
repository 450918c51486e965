package dev.ceiling.rig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.internal.PidFile;
import dev.ceiling.rig.internal.StateDirectory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lifecycle against real child processes (python3 fake_relay.py). */
class LifecycleIT {
  @TempDir Path dir;

  @Test
  void upWritesPidFileAndDescriptorAndDownStopsOnlyOurRelay() throws Exception {
    int port = Fakes.freePort();
    Path state = dir.resolve("a");
    RigHandle h = Fakes.real().up(Fakes.options(Fakes.profile("ready", port), state));
    long pid = h.descriptor().relayPid();
    try {
      RigDescriptor d = h.descriptor();
      assertThat(Fakes.alive(pid)).isTrue();
      assertThat(d.relayCommand()).contains(d.rigId(), "--audit", "on", "--limit", "1000000");
      assertThat(d.relayCommand().get(0)).endsWith("python3");
      assertThat(d.relayInfo())
          .containsEntry("audit", "on")
          .containsEntry("limit", "1000000")
          .containsEntry("port", Integer.toString(port))
          .containsEntry("parameter.mode", "ready")
          .containsEntry("port.port", Integer.toString(port));
      assertThat(d.limiterSettings()).isEqualTo(Map.of("limit", "1000000"));
      assertThat(d.queueCapacity()).isEqualTo(10);
      assertThat(d.healthUrl()).isEqualTo("http://127.0.0.1:" + port + "/health");
      assertThat(d.targets().get(0).hostHeader()).isEqualTo("a.localhost:" + port);
      assertThat(d.databaseReset()).isFalse();
      assertThat(d.generatorVersion()).isEqualTo("0.1.0-SNAPSHOT");
      assertThat(d.generatorJarDigest()).matches("[0-9a-f]{64}");
      // The file holds exactly what up returned, and only the owner can read it.
      assertThat(Json.read(h.descriptorFile(), RigDescriptor.class)).isEqualTo(d);
      for (Path f : List.of(h.descriptorFile(), PidFile.in(state), state.resolve("relay.log"))) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
            .as(f.toString())
            .isEqualTo("rw-------");
      }
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state)))
          .isEqualTo("rwx------");
      // Detached: setsid exec'd in place, so the relay leads its own session under our pid.
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
      assertThat(Long.parseLong(f[3])).as("session id").isEqualTo(pid);
      PidFile pf = PidFile.read(PidFile.in(state));
      assertThat(pf.pid()).isEqualTo(pid);
      assertThat(pf.command()).isEqualTo(d.relayCommand());

      StatusResult s = Rig.status(state);
      assertThat(s.state()).isEqualTo(StatusResult.State.RUNNING_OURS);
      assertThat(s.healthy()).isTrue();
      assertThat(s.ports()).isEqualTo(Map.of("port", port));

      DownResult r = h.stop();
      assertThat(r.outcome()).isEqualTo(DownResult.Outcome.STOPPED);
      assertThat(Fakes.alive(pid)).isFalse();
      assertThat(PidFile.in(state)).doesNotExist();
      assertThat(h.descriptorFile()).doesNotExist();
      assertThat(h.stop()).isSameAs(r);
      assertThat(Rig.down(state, Duration.ofSeconds(1)).outcome())
          .isEqualTo(DownResult.Outcome.NO_PID_FILE);
    } finally {
      Fakes.kill(pid);
    }
  }

  @Test
  void twoRigsOnDifferentPortsDoNotStopEachOther() throws Exception {
    RigHandle a =
        Fakes.real().up(Fakes.options(Fakes.profile("ready", Fakes.freePort()), dir.resolve("a")));
    try (RigHandle b =
        Fakes.real()
            .up(Fakes.options(Fakes.profile("ready", Fakes.freePort()), dir.resolve("b")))) {
      try {
        assertThat(a.stop().outcome()).isEqualTo(DownResult.Outcome.STOPPED);
        assertThat(Fakes.alive(a.descriptor().relayPid())).isFalse();
        assertThat(Fakes.alive(b.descriptor().relayPid())).isTrue();
        assertThat(Rig.status(dir.resolve("b")).healthy()).isTrue();
        // A's pid file copied into B's place must not let down stop A's stranger either way: B's
        // own down still stops B.
        assertThat(b.stop().outcome()).isEqualTo(DownResult.Outcome.STOPPED);
      } finally {
        Fakes.kill(b.descriptor().relayPid());
      }
    } finally {
      Fakes.kill(a.descriptor().relayPid());
    }
  }

  @Test
  void aProcessThatExitsDuringStartupIsReportedWithExitCodeAndLogTail() throws Exception {
    Path state = dir.resolve("x");
    assertThatThrownBy(
            () -> Fakes.real().up(Fakes.options(Fakes.profile("exit", Fakes.freePort()), state)))
        .isInstanceOfSatisfying(
            RigException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(RigException.Kind.START_FAILED);
              assertThat(e.getMessage())
                  .containsPattern("(exited during startup with code 7|exited with code 7)")
                  .contains("  | fake relay: cannot open database (scripted failure)");
            });
    assertThat(PidFile.in(state)).doesNotExist();
  }

  @Test
  void aProcessThatNeverBecomesReadyTimesOutAndIsStopped() throws Exception {
    Path state = dir.resolve("n");
    UpOptions o =
        Fakes.options(Fakes.profile("never", Fakes.freePort()), state)
            .withTimeouts(Duration.ofMillis(1500), Duration.ZERO, Duration.ofSeconds(2));
    RigException e = catchRig(() -> Fakes.real().up(o));
    assertThat(e.kind()).isEqualTo(RigException.Kind.START_FAILED);
    assertThat(e.getMessage())
        .contains("did not become ready: expected GET http://127.0.0.1:")
        .contains("within PT1.5S")
        .contains("still alive and has been stopped (STOPPED)")
        .contains("  | fake relay: warming up forever");
    Matcher m = Pattern.compile("\\(pid (\\d+)\\)").matcher(e.getMessage());
    assertThat(m.find()).isTrue();
    long pid = Long.parseLong(m.group(1));
    try {
      assertThat(Fakes.alive(pid)).isFalse();
      assertThat(PidFile.in(state)).doesNotExist();
    } finally {
      Fakes.kill(pid);
    }
  }

  /** Up against a port held by this test JVM; returns the exception (or null if up succeeded). */
  private RigException upOnBusyPort(Lifecycle rig, String name) throws Exception {
    try (ServerSocket held = new ServerSocket()) {
      held.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = held.getLocalPort();
      try {
        RigHandle h = rig.up(Fakes.options(Fakes.profile("ready", port), dir.resolve(name)));
        h.close();
        Fakes.kill(h.descriptor().relayPid());
        return null;
      } catch (RigException e) {
        return e;
      }
    }
  }

  private static boolean refusedNamingPortAndListener(RigException e) {
    return e != null
        && e.kind() == RigException.Kind.PORT_IN_USE
        && e.getMessage().matches("(?s).*port port=\\d+ is in use on 127\\.0\\.0\\.1.*")
        && e.getMessage().contains("pid " + ProcessHandle.current().pid() + ": ");
  }

  @Test
  void aBusyPortIsRefusedNamingThePortAndItsListener() throws Exception {
    RigException e = upOnBusyPort(Fakes.real(), "p1");
    assertThat(refusedNamingPortAndListener(e)).as(String.valueOf(e)).isTrue();
    assertThat(e.getMessage()).contains("after waiting PT0.3S");
    // MUTANT: a rig that skips the port check starts anyway; the relay then fails on its own and
    // the refusal the operator needed never comes.
    RigException mutant = upOnBusyPort(Fakes.skipsPortCheck(), "p2");
    assertThat(refusedNamingPortAndListener(mutant)).as(String.valueOf(mutant)).isFalse();
  }

  @Test
  void aPortReleasedWithinTheWaitIsUsed() throws Exception {
    ServerSocket held = new ServerSocket();
    held.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    int port = held.getLocalPort();
    Thread release =
        new Thread(
            () -> {
              try {
                Thread.sleep(400);
                held.close();
              } catch (IOException | InterruptedException ex) {
                throw new IllegalStateException(ex);
              }
            });
    release.start();
    UpOptions o =
        Fakes.options(Fakes.profile("ready", port), dir.resolve("w"))
            .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(2));
    try (RigHandle h = Fakes.real().up(o)) {
      try {
        assertThat(Rig.status(dir.resolve("w")).healthy()).isTrue();
      } finally {
        h.stop();
        Fakes.kill(h.descriptor().relayPid());
      }
    } finally {
      release.join();
      held.close();
    }
  }

  @Test
  void skipRelayAttachesWithNullPidAndDownSignalsNothing() throws Exception {
    int port = Fakes.freePort();
    Process theirs =
        new ProcessBuilder(
                Fakes.python(),
                Fakes.script().toString(),
                "--port",
                Integer.toString(port),
                "--rig-id",
                "theirs")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      Path state = dir.resolve("s");
      UpOptions o = Fakes.options(Fakes.profile("ready", port), state).withSkipRelay(true);
      RigHandle h = Fakes.real().up(o);
      assertThat(h.descriptor().relayPid()).isNull();
      assertThat(h.descriptor().relayLog()).isNull();
      assertThat(h.descriptor().ownsRelay()).isFalse();
      assertThat(PidFile.in(state)).doesNotExist();
      assertThat(Rig.status(state).state()).isEqualTo(StatusResult.State.ATTACHED);
      DownResult r = Rig.down(state, Duration.ofSeconds(1));
      assertThat(r.outcome()).isEqualTo(DownResult.Outcome.ATTACHED);
      assertThat(theirs.isAlive()).isTrue();
    } finally {
      Fakes.kill(theirs.pid());
    }
  }

  @Test
  void skipRelayWithNothingAnsweringFails() throws Exception {
    UpOptions o =
        Fakes.options(Fakes.profile("ready", Fakes.freePort()), dir.resolve("z"))
            .withSkipRelay(true)
            .withTimeouts(Duration.ofMillis(300), Duration.ZERO, Duration.ZERO);
    RigException e = catchRig(() -> Fakes.real().up(o));
    assertThat(e.kind()).isEqualTo(RigException.Kind.ATTACH_FAILED);
    assertThat(e.getMessage()).contains("expected GET http://127.0.0.1:").contains("within PT0.3S");
  }

  /**
   * {@code --reset} deletes {@code data/} and makes the state directory mode 700, so it does so
   * only in a directory the rig created. A directory the rig did not create is refused, untouched;
   * the failing partner is the same directory with the rig's marker planted in it, which the rig
   * then treats as its own (resets and chmods it), so the marker is what decides.
   */
  @Test
  void aForeignStateDirectoryIsRefusedUntouchedAndOnlyAMarkedOneIsReset() throws Exception {
    Path state = dir.resolve("r");
    Files.createDirectories(state.resolve("data"));
    Files.writeString(state.resolve("data/old.db"), "rows");
    Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-xr-x"));
    UpOptions o = Fakes.options(Fakes.profile("ready", Fakes.freePort()), state).withReset(true);
    RigException e = catchRig(() -> Fakes.real().up(o));
    assertThat(e.kind()).isEqualTo(RigException.Kind.STATE);
    assertThat(e.getMessage())
        .contains("state directory " + state.toAbsolutePath())
        .contains("not created by the rig");
    assertThat(state.resolve("data/old.db")).hasContent("rows");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state)))
        .isEqualTo("rwxr-xr-x");
    assertThat(state).isDirectoryNotContaining("glob:**/relay.*");

    // The doctored partner: the marker makes it the rig's own.
    Files.writeString(state.resolve(StateDirectory.MARKER), "planted by the test");
    Files.writeString(state.resolve("relay.log"), "the previous run's log");
    try (RigHandle h = Fakes.real().up(o)) {
      try {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state)))
            .isEqualTo("rwx------");
        assertThat(state.resolve("relay.log.1")).hasContent("the previous run's log");
        assertThat(state.resolve("data")).isEmptyDirectory();
        assertThat(h.descriptor().relayCommand()).contains("--reset");
        assertThat(h.descriptor().databaseReset()).isTrue();
        assertThat(h.descriptor().relayInfo()).containsEntry("reset", "True");
      } finally {
        h.stop();
        Fakes.kill(h.descriptor().relayPid());
      }
    }
  }

  /** A fake relay brought up in {@code dir/name}, whose pid file was then torn mid-write. */
  private record Garbled(Path state, UpOptions options, RigHandle handle, long pid) {}

  private Garbled upThenGarblePidFile(String name) throws Exception {
    Path state = dir.resolve(name);
    UpOptions o = Fakes.options(Fakes.profile("ready", Fakes.freePort()), state);
    RigHandle h = Fakes.real().up(o);
    long pid = h.descriptor().relayPid();
    try {
      Files.writeString(PidFile.in(state), "{\"pid\": " + pid + ", torn");
    } catch (IOException | RuntimeException e) {
      Fakes.kill(pid);
      throw e;
    }
    return new Garbled(state, o, h, pid);
  }

  /**
   * {@code down} on a garbled pid file must not exit 0 and forget a relay that is still running: it
   * finds the relay through the descriptor (pid, start instant, command line with the rig id) and
   * stops it. The doctored partner: a descriptor whose start instant is wrong cannot prove the
   * process is ours, while a process carries the rig id: nothing is signalled, every file is kept,
   * and the result is not clean.
   */
  @Test
  void downWithAGarbledPidFileStopsTheRelayTheDescriptorNames() throws Exception {
    Garbled g = upThenGarblePidFile("garbled");
    Path state = g.state();
    RigHandle h = g.handle();
    long pid = g.pid();
    try {
      Path descriptor = state.resolve("descriptor.json");
      String original = Files.readString(descriptor);

      // Doctored: the descriptor's start instant is a minute off.
      String instant = h.descriptor().relayStartInstant().toString();
      String doctored =
          original.replace(instant, h.descriptor().relayStartInstant().minusSeconds(60).toString());
      assertThat(doctored).isNotEqualTo(original);
      Files.writeString(descriptor, doctored);
      DownResult refused = Fakes.real().down(state, Duration.ofSeconds(5));
      assertThat(refused.outcome()).as(refused.message()).isEqualTo(DownResult.Outcome.UNRESOLVED);
      assertThat(refused.clean()).isFalse();
      assertThat(refused.message()).contains("carry that rig id").contains("kept every file");
      assertThat(Fakes.alive(pid)).isTrue();
      assertThat(PidFile.in(state)).exists();
      assertThat(descriptor).hasContent(doctored);

      Files.writeString(descriptor, original);
      DownResult r = Fakes.real().down(state, Duration.ofSeconds(5));
      assertThat(r.outcome()).as(r.message()).isEqualTo(DownResult.Outcome.STOPPED);
      assertThat(r.clean()).isTrue();
      assertThat(r.message()).contains("pid file unreadable").contains(h.descriptor().rigId());
      assertThat(Fakes.alive(pid)).isFalse();
      assertThat(PidFile.in(state)).doesNotExist();
      assertThat(descriptor).doesNotExist();
    } finally {
      Fakes.kill(pid);
    }
  }

  /**
   * {@code up} over a garbled pid file used to delete it and start a second relay, forgetting the
   * first, which still ran. It now refuses, names the file and points at {@code down}; the relay is
   * untouched and the file kept. The partner: after {@code down} (which finds the relay through the
   * descriptor and stops it), the same {@code up} starts.
   */
  @Test
  void upOverAGarbledPidFileRefusesAndForgetsNothing() throws Exception {
    Garbled g = upThenGarblePidFile("garbled-up");
    Path state = g.state();
    UpOptions o = g.options();
    long pid = g.pid();
    try {
      assertThatThrownBy(() -> Fakes.real().up(o))
          .isInstanceOf(RigException.class)
          .hasMessageContaining("unreadable")
          .hasMessageContaining("rig down --state-dir " + state);
      assertThat(Fakes.alive(pid)).isTrue();
      assertThat(PidFile.in(state)).hasContent("{\"pid\": " + pid + ", torn");

      DownResult down = Fakes.real().down(state, Duration.ofSeconds(5));
      assertThat(down.outcome()).as(down.message()).isEqualTo(DownResult.Outcome.STOPPED);
      try (RigHandle again = Fakes.real().up(o)) {
        try {
          assertThat(Fakes.alive(again.descriptor().relayPid())).isTrue();
        } finally {
          again.stop();
          Fakes.kill(again.descriptor().relayPid());
        }
      }
    } finally {
      Fakes.kill(pid);
    }
  }

  @Test
  void aNewStateDirectoryIsCreatedAndMarkedByTheRig() throws Exception {
    Path state = dir.resolve("new").resolve("state");
    UpOptions o = Fakes.options(Fakes.profile("ready", Fakes.freePort()), state).withReset(true);
    try (RigHandle h = Fakes.real().up(o)) {
      try {
        assertThat(state.resolve(StateDirectory.MARKER)).isRegularFile();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state)))
            .isEqualTo("rwx------");
      } finally {
        h.stop();
        Fakes.kill(h.descriptor().relayPid());
      }
    }
    // Its own directory again: accepted, the data reset.
    Files.writeString(state.resolve("data/left.db"), "rows");
    try (RigHandle h = Fakes.real().up(o)) {
      try {
        assertThat(state.resolve("data")).isEmptyDirectory();
      } finally {
        h.stop();
        Fakes.kill(h.descriptor().relayPid());
      }
    }
  }

  @Test
  void aRelayIgnoringSigtermIsKilledAfterTheStopTimeout() throws Exception {
    UpOptions o =
        Fakes.options(Fakes.profile("stubborn", Fakes.freePort()), dir.resolve("k"))
            .withTimeouts(Duration.ofSeconds(10), Duration.ZERO, Duration.ofMillis(500));
    RigHandle h = Fakes.real().up(o);
    try {
      DownResult r = h.stop();
      assertThat(r.outcome()).isEqualTo(DownResult.Outcome.KILLED);
      assertThat(r.message()).contains("ignored SIGTERM for PT0.5S");
      assertThat(Fakes.alive(h.descriptor().relayPid())).isFalse();
    } finally {
      Fakes.kill(h.descriptor().relayPid());
    }
  }

  @Test
  void aSecondUpOnARunningStateDirectoryIsRefused() throws Exception {
    Path state = dir.resolve("twice");
    RelayProfile p = Fakes.profile("ready", Fakes.freePort());
    try (RigHandle h = Fakes.real().up(Fakes.options(p, state))) {
      try {
        RigException e = catchRig(() -> Fakes.real().up(Fakes.options(p, state)));
        assertThat(e.kind()).isEqualTo(RigException.Kind.STATE);
        assertThat(e.getMessage()).contains("already running").contains("run down first");
        assertThat(Fakes.alive(h.descriptor().relayPid())).isTrue();
      } finally {
        h.stop();
        Fakes.kill(h.descriptor().relayPid());
      }
    }
  }

  @FunctionalInterface
  interface RigCall {
    Object call() throws Exception;
  }

  static RigException catchRig(RigCall c) throws Exception {
    try {
      Object h = c.call();
      if (h instanceof RigHandle rh) {
        rh.close();
        if (rh.descriptor().relayPid() != null) {
          Fakes.kill(rh.descriptor().relayPid());
        }
      }
    } catch (RigException e) {
      return e;
    }
    throw new AssertionError("expected a RigException");
  }

  /**
   * The relay runs in the profile's working_directory (nostream reads its default settings relative
   * to it), with its own command line exec'd, not a shell's.
   */
  @Test
  void theRelayRunsInTheProfilesWorkingDirectory() throws Exception {
    Path home = Files.createDirectories(dir.resolve("relay-home"));
    String json =
        Fakes.profileJson("ready", Fakes.freePort())
            .replace(
                "\"name\": \"fake\",",
                "\"name\": \"fake\", \"working_directory\": \"" + home + "\",");
    try (RigHandle h =
        Fakes.real()
            .up(Fakes.options(ProfileReader.read(json, "fake-profile", null), dir.resolve("w")))) {
      long pid = h.descriptor().relayPid();
      assertThat(Files.readSymbolicLink(Path.of("/proc/" + pid + "/cwd")))
          .isEqualTo(home.toRealPath());
    }
  }

  /** Partner: without working_directory the relay runs in its state directory. */
  @Test
  void withoutAWorkingDirectoryTheRelayRunsInItsStateDirectory() throws Exception {
    Path state = dir.resolve("w");
    try (RigHandle h =
        Fakes.real().up(Fakes.options(Fakes.profile("ready", Fakes.freePort()), state))) {
      long pid = h.descriptor().relayPid();
      assertThat(Files.readSymbolicLink(Path.of("/proc/" + pid + "/cwd")))
          .isEqualTo(state.toRealPath());
    }
  }
}
