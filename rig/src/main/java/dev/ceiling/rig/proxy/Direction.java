package dev.ceiling.rig.proxy;

/** Which way bytes cross a {@link DelayProxy}: from the relay (client) to its target, or back. */
public enum Direction {
  /** From the connecting side (the relay) to the upstream target. */
  TO_TARGET,
  /** From the upstream target back to the connecting side. */
  TO_CLIENT
}
