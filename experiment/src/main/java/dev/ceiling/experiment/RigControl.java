package dev.ceiling.experiment;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.rig.DownResult;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.rig.proxy.DelayProxy;
import java.nio.file.Path;
import java.util.Map;

/**
 * How the experiment brings an arm's relay up and clears one an interrupted run left behind: the
 * rig module's {@link Rig} in production. It is an interface so the experiment's phases can be
 * tested with a fake rig, without a relay.
 */
interface RigControl {
  /** The rig module's own start and stop. */
  RigControl REAL =
      new RigControl() {
        @Override
        public Running up(UpOptions options) throws RigException {
          return Running.of(Rig.up(options));
        }

        @Override
        public DownResult down(Path stateDir) {
          return Rig.down(stateDir);
        }
      };

  /** A relay one arm brought up. Thread-safe: a shutdown hook may stop it. */
  interface Running {
    RigDescriptor descriptor();

    /** The relay's proxied links by name; none by default (a fake rig). */
    default Map<String, DelayProxy> proxies() {
      return java.util.Map.of();
    }

    /** Stops the relay; idempotent, every call returns the first call's result. */
    DownResult stop();

    /** The relay of a rig handle. */
    static Running of(RigHandle h) {
      return new Running() {
        @Override
        public RigDescriptor descriptor() {
          return h.descriptor();
        }

        @Override
        public Map<String, DelayProxy> proxies() {
          return h.proxies();
        }

        @Override
        public DownResult stop() {
          return h.stop();
        }
      };
    }
  }

  /**
   * Starts the relay {@code options} describe.
   *
   * @throws RigException when it did not start (the message says why)
   */
  Running up(UpOptions options) throws RigException;

  /** Stops the relay of {@code stateDir} if its pid file proves this rig started it. */
  DownResult down(Path stateDir);
}
