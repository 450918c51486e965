package dev.ceiling.rig.proxy;

import java.util.concurrent.atomic.LongAdder;

/** The live counters behind {@link LinkCounters}: written on event loops, read from any thread. */
final class Counters {
  final LongAdder connections = new LongAdder();
  final LongAdder failedConnects = new LongAdder();
  final LongAdder turns = new LongAdder();
  final LongAdder bytesToTarget = new LongAdder();
  final LongAdder bytesToClient = new LongAdder();
  final LongAdder releasedChunks = new LongAdder();
  final LongAdder releaseLatenessNanos = new LongAdder();

  void bytes(Direction direction, long count) {
    (direction == Direction.TO_TARGET ? bytesToTarget : bytesToClient).add(count);
  }

  LinkCounters snapshot() {
    return new LinkCounters(
        connections.sum(),
        failedConnects.sum(),
        turns.sum(),
        bytesToTarget.sum(),
        bytesToClient.sum(),
        releasedChunks.sum(),
        releaseLatenessNanos.sum());
  }
}
