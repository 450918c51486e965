package dev.ceiling.rig.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One direction of one connection: each chunk read from {@code source} is held until its due
 * instant (arrival plus the hold) and then written to {@code sink}, in arrival order. Every chunk
 * keeps its own due instant, so chunks are neither coalesced nor throttled: a burst leaves as it
 * came, shifted by the hold. A due instant never precedes the one before it, so shortening the
 * delay at run time cannot reorder bytes. Confined to the connection's event loop.
 */
final class Hold {
  /** Above this many held bytes the source stops reading until the sink catches up. */
  static final long HIGH_WATER_BYTES = 4L << 20;

  private static final long LOW_WATER_BYTES = 1L << 20;

  private record Held(ByteBuf bytes, long dueNanos) {}

  private final ArrayDeque<Held> queue = new ArrayDeque<>();
  private final Channel source;
  private final Channel sink;
  private final Counters counters;
  private long lastDueNanos;
  private long heldBytes;
  private boolean closeWhenDrained;

  Hold(Channel source, Channel sink, Counters counters) {
    this.source = source;
    this.sink = sink;
    this.counters = counters;
    this.lastDueNanos = System.nanoTime();
  }

  /**
   * Takes ownership of {@code bytes}, which arrived now, and releases them {@code holdNanos} on.
   */
  void accept(ByteBuf bytes, long holdNanos) {
    long now = System.nanoTime();
    long due = Math.max(now + holdNanos, lastDueNanos);
    lastDueNanos = due;
    queue.add(new Held(bytes, due));
    heldBytes += bytes.readableBytes();
    if (due - now <= 0) {
      release();
    } else {
      var unused = source.eventLoop().schedule(this::release, due - now, TimeUnit.NANOSECONDS);
    }
    if (heldBytes > HIGH_WATER_BYTES || !sink.isWritable()) {
      source.config().setAutoRead(false);
    }
  }

  /** Writes every chunk that is due, oldest first; runs at each chunk's due instant. */
  void release() {
    long now = System.nanoTime();
    boolean wrote = false;
    while (!queue.isEmpty() && queue.peek().dueNanos() - now <= 0) {
      Held h = queue.poll();
      heldBytes -= h.bytes().readableBytes();
      counters.releasedChunks.increment();
      counters.releaseLatenessNanos.add(now - h.dueNanos());
      var unused = sink.write(h.bytes(), sink.voidPromise());
      wrote = true;
    }
    if (wrote) {
      sink.flush();
    }
    if (queue.isEmpty() && closeWhenDrained) {
      closeSink();
    }
    resumeIfRoom();
  }

  /** The source closed: the sink is closed once every held chunk has been written. */
  void sourceClosed() {
    closeWhenDrained = true;
    if (queue.isEmpty()) {
      closeSink();
    }
  }

  /** Lets the source read again once the sink drains and the hold is below its low water. */
  void resumeIfRoom() {
    if (heldBytes <= LOW_WATER_BYTES
        && sink.isWritable()
        && source.isActive()
        && !source.config().isAutoRead()) {
      source.config().setAutoRead(true);
    }
  }

  /** Frees what is still held when the connection is torn down. */
  void discard() {
    while (!queue.isEmpty()) {
      queue.poll().bytes().release();
    }
    heldBytes = 0;
  }

  private void closeSink() {
    if (sink.isActive()) {
      var unused =
          sink.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
  }
}
