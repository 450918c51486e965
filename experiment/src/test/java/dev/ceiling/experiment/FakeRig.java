package dev.ceiling.experiment;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.testing.HalfRuns;
import dev.ceiling.rig.DownResult;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.UpOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A rig without a relay: {@code up} hands out the descriptor a function makes for the arm (or
 * refuses an arm), and records every start and stop.
 */
final class FakeRig implements RigControl {
  final List<String> started = new ArrayList<>();
  final List<String> stopped = new ArrayList<>();
  final List<Path> downs = new ArrayList<>();
  final Map<String, String> refuse = new HashMap<>();
  DownResult.Outcome stopOutcome = DownResult.Outcome.STOPPED;
  private final Function<String, RigDescriptor> descriptors;

  /** Every arm gets {@link HalfRuns#rig(String)}. */
  FakeRig() {
    this(HalfRuns::rig);
  }

  FakeRig(Function<String, RigDescriptor> descriptors) {
    this.descriptors = descriptors;
  }

  /** The arms whose relay is up now: started and not stopped. */
  List<String> running() {
    List<String> up = new ArrayList<>(started);
    up.removeAll(stopped);
    return up;
  }

  @Override
  public Running up(UpOptions options) throws RigException {
    String arm = options.arm();
    if (refuse.containsKey(arm)) {
      throw new RigException(RigException.Kind.START_FAILED, refuse.get(arm));
    }
    started.add(arm);
    RigDescriptor d = descriptors.apply(arm);
    return new Running() {
      private DownResult result;

      @Override
      public RigDescriptor descriptor() {
        return d;
      }

      @Override
      public synchronized DownResult stop() {
        if (result == null) {
          stopped.add(arm);
          result = new DownResult(stopOutcome, 42L, "relay of " + arm + ": " + stopOutcome);
        }
        return result;
      }
    };
  }

  @Override
  public DownResult down(Path stateDir) {
    downs.add(stateDir);
    return new DownResult(DownResult.Outcome.NO_PID_FILE, null, "no pid file in " + stateDir);
  }
}
