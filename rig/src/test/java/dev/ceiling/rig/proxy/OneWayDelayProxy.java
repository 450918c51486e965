package dev.ceiling.rig.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;

/** MUTANT: holds chunks on the way to the target only; the answers come straight back. */
final class OneWayDelayProxy extends DelayProxy {
  OneWayDelayProxy(InetSocketAddress target, Duration delay) throws IOException {
    super(target, delay);
  }

  @Override
  protected long holdNanos(Direction direction, long delayNanos) {
    return direction == Direction.TO_TARGET ? delayNanos / 2 : 0;
  }
}
