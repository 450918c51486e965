package dev.ceiling.generator.internal;

import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * The generator's client connector: every read runs on Jetty's selector thread, where the data was
 * seen, instead of being handed to a pool thread.
 *
 * <p>Why: Jetty treats a connection's read as blocking unless told otherwise, so each readable
 * socket costs a thread hand-off (a futex wake, a context switch, and on the way back an eventfd
 * write to wake the selector). The generator reads one small OK frame per event, so at 20,000
 * events/s that hand-off was two thirds of its receive threads' CPU (perf, docs/PERFORMANCE.md), on
 * the same two cores its senders need on time. Everything the generator does with a frame is
 * non-blocking: it parses the OK, updates counters under a short lock, and (for AUTH) signs one
 * event and queues its write. Nothing here may block, or every connection's reads stall behind it.
 */
final class SelectorThreadReads extends ClientConnector {
  @Override
  protected EndPoint newEndPoint(
      SelectableChannel channel, ManagedSelector selector, SelectionKey key) {
    if (!(channel instanceof SocketChannel socket)) {
      return super.newEndPoint(channel, selector, key);
    }
    return new SocketChannelEndPoint(socket, selector, key, getScheduler()) {
      @Override
      public void fillInterested(Callback callback) {
        super.fillInterested(nonBlocking(callback));
      }

      @Override
      public boolean tryFillInterested(Callback callback) {
        return super.tryFillInterested(nonBlocking(callback));
      }
    };
  }

  private static Callback nonBlocking(Callback callback) {
    return Callback.from(
        Invocable.InvocationType.NON_BLOCKING, callback::succeeded, callback::failed);
  }
}
