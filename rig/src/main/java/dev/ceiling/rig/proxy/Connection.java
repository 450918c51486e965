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
      new Connection(proxy, counters, ctx.channel()).connectTarget();
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
      var unused = client.close();
      return;
    }
    target = done.channel();
    if (!client.isActive()) {
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
    holds.get(direction).accept(bytes, proxy.holdNanos(direction, proxy.delayNanos()));
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
      closeBoth();
    }
  }
}
