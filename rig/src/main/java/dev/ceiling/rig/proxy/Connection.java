package dev.ceiling.rig.proxy;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.util.ReferenceCountUtil;
import java.util.EnumMap;
import java.util.Map;

/**
 * One client connection through a {@link DelayProxy} and its connection to the target: both
 * channels live on one event loop, so the hold queues and the turn count need no locks. The client
 * does not read until the target connection is up; then each side's reads go into the hold of its
 * direction.
 */
final class Connection {
  private final DelayProxy proxy;
  private final Counters counters;
  private final Channel client;
  private final Map<Direction, Hold> holds = new EnumMap<>(Direction.class);
  private Channel target;
  private Direction last;

  /** When the request now waiting for a reply arrived, or {@link #NOT_WAITING}. */
  private long waitingSinceNanos = NOT_WAITING;

  /** The stall id of the request now waiting, once it waited past the bound; 0 before. */
  private long stallId;

  private boolean clientEnded;
  private boolean resetCounted;

  private static final long NOT_WAITING = Long.MIN_VALUE;

  private Connection(DelayProxy proxy, Counters counters, Channel client) {
    this.proxy = proxy;
    this.counters = counters;
    this.client = client;
  }

  /**
   * The handler of every accepted client channel (created with auto-read off): one instance added
   * to each child's pipeline, so it must be sharable (Netty refuses a second child otherwise, and
   * the proxy would reset every connection after the first); it keeps no state of its own.
   */
  static ChannelInboundHandlerAdapter acceptor(DelayProxy proxy, Counters counters) {
    return new Acceptor(proxy, counters);
  }

  @ChannelHandler.Sharable
  private static final class Acceptor extends ChannelInboundHandlerAdapter {
    private final DelayProxy proxy;
    private final Counters counters;

    Acceptor(DelayProxy proxy, Counters counters) {
      this.proxy = proxy;
      this.counters = counters;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      counters.connections.increment();
      Connection c = new Connection(proxy, counters, ctx.channel());
      proxy.connectionOpened(c);
      c.connectTarget();
    }
  }

  private void connectTarget() {
    Bootstrap b =
        new Bootstrap()
            .group(client.eventLoop())
            .channel(proxy.transport().socketChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.AUTO_READ, false)
            .handler(new Side(Direction.TO_CLIENT));
    ChannelFuture f = b.connect(proxy.target());
    var unused = f.addListener((ChannelFuture done) -> connected(done));
  }

  private void connected(ChannelFuture done) {
    if (!done.isSuccess()) {
      counters.failedConnects.increment();
      proxy.refused();
      proxy.connectionEnded(this);
      var unused = client.close();
      return;
    }
    target = done.channel();
    if (!client.isActive()) {
      proxy.connectionEnded(this);
      var unused = target.close();
      return;
    }
    holds.put(Direction.TO_TARGET, new Hold(client, target, counters));
    holds.put(Direction.TO_CLIENT, new Hold(target, client, counters));
    client.pipeline().addLast(new Side(Direction.TO_TARGET));
    client.config().setAutoRead(true);
    target.config().setAutoRead(true);
  }

  /**
   * A wire turn is the traffic flipping from client-to-target to target-to-client: one request
   * answered, however many chunks each side took.
   */
  private void arrived(Direction direction, ByteBuf bytes) {
    counters.bytes(direction, bytes.readableBytes());
    if (direction == Direction.TO_CLIENT && last == Direction.TO_TARGET) {
      counters.turns.increment();
    }
    last = direction;
    long now = System.nanoTime();
    if (direction == Direction.TO_TARGET) {
      if (waitingSinceNanos == NOT_WAITING) {
        waitingSinceNanos = now;
      }
    } else {
      answered(now);
    }
    holds.get(direction).accept(bytes, proxy.holdNanos(direction, proxy.delayNanos()));
  }

  /** The target answered (or the connection ended): a stall, if it was one, ends at its length. */
  private void answered(long now) {
    if (stallId != 0) {
      proxy.stalled(stallId, waitingSinceNanos, now - waitingSinceNanos);
    }
    waitingSinceNanos = NOT_WAITING;
    stallId = 0;
  }

  /** Called on the event loop every check: a request waiting past the bound is a stall. */
  void checkStall(long now) {
    if (waitingSinceNanos == NOT_WAITING) {
      return;
    }
    long waited = now - waitingSinceNanos;
    if (stallId == 0 && waited > proxy.stallBoundNanos()) {
      stallId = proxy.nextStallId();
    }
    if (stallId != 0) {
      proxy.stalled(stallId, waitingSinceNanos, waited);
    }
  }

  /**
   * The target's side ended the connection while the relay still held it (a reset, or a close the
   * relay did not ask for): one reset per connection.
   */
  private void targetDropped() {
    if (!clientEnded && !resetCounted) {
      resetCounted = true;
      proxy.reset();
    }
  }

  private void closeBoth() {
    for (Hold h : holds.values()) {
      h.discard();
    }
    var unused = client.close();
    if (target != null) {
      unused = target.close();
    }
  }

  /** Reads of one side: bytes read here travel in {@code direction}. */
  private final class Side extends ChannelInboundHandlerAdapter {
    private final Direction direction;

    Side(Direction direction) {
      this.direction = direction;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof ByteBuf bytes && holds.containsKey(direction)) {
        arrived(direction, bytes);
      } else {
        ReferenceCountUtil.release(msg);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (direction == Direction.TO_TARGET) {
        clientEnded = true;
        proxy.connectionEnded(Connection.this);
      } else {
        // A close that answers a request is the protocol's own goodbye (PostgreSQL's Terminate,
        // which gets no reply): not a failure. One that interrupts an idle connection is.
        if (waitingSinceNanos == NOT_WAITING) {
          targetDropped();
        }
        answered(System.nanoTime());
        proxy.connectionEnded(Connection.this);
      }
      Hold h = holds.get(direction);
      if (h != null) {
        h.sourceClosed();
      }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      // This channel is the sink of the other direction's hold.
      Hold into =
          holds.get(direction == Direction.TO_TARGET ? Direction.TO_CLIENT : Direction.TO_TARGET);
      if (into != null) {
        into.resumeIfRoom();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (direction == Direction.TO_CLIENT) {
        targetDropped(); // an error on the target's socket (a reset); the relay's own is its doing
      }
      closeBoth();
    }
  }
}
