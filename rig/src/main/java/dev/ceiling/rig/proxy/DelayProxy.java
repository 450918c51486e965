package dev.ceiling.rig.proxy;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 between a relay and one of its upstream services (a database, a cache),
 * that adds a round-trip delay d: each chunk is forwarded d/2 after it arrived, in each direction,
 * so one request-response exchange gains d. Bytes pass unchanged and in order, each chunk on its
 * own (never coalesced, reordered or throttled); only a full hold (4 MiB) or a sink that cannot
 * take more stops the source from reading. It counts wire turns, the times a connection's traffic
 * flips from client-to-target to target-to-client: the sequential round trips the relay made.
 *
 * <p>Each connection to the proxy opens one to the target. One event-loop thread (daemon) serves
 * every connection. With epoll (Linux) holds are precise to microseconds; elsewhere NIO rounds them
 * to milliseconds ({@link #preciseTimers()}).
 *
 * <p>It also watches the link's health ({@link #watch()}): connections the target refused, closed
 * or reset while the relay held them, and requests left without a reply for longer than {@link
 * #STALL_BOUND} beyond the delay in force. A request is the bytes the relay sends after the
 * target's last reply; the target's next bytes answer it. So a stall assumes the protocol answers
 * every request (PostgreSQL, Redis and HTTP do; a subscription's silence would read as a stall).
 *
 * <p>Thread-safe: {@link #setDelay}, {@link #counters()}, {@link #watch()} and {@link #close()} may
 * be called from any thread while traffic flows. A new delay applies to chunks arriving after the
 * call.
 */
public class DelayProxy implements AutoCloseable {
  /** The largest delay accepted, so a typo in milliseconds cannot stall a link for hours. */
  public static final Duration MAX_DELAY = Duration.ofSeconds(10);

  /**
   * How long beyond the delay in force a request may wait for its reply before it counts as a
   * stall. A database or cache on loopback answers in milliseconds; 2 s leaves a loaded 2-core
   * machine's scheduling (a woken thread waiting 100 ms for a CPU was seen) and a slow fsync room,
   * while an outage that lasts a cell's seconds still shows.
   */
  public static final Duration STALL_BOUND = Duration.ofSeconds(2);

  /** How often the event loop looks for requests waiting longer than the stall bound. */
  static final Duration STALL_CHECK_EVERY = Duration.ofMillis(100);

  private final InetSocketAddress target;
  private final Transport transport = Transport.best();
  private final Counters counters = new Counters();
  private final EventLoopGroup group;
  private final Channel server;
  private final Set<LinkWatch> watches = new CopyOnWriteArraySet<>();
  private final Set<Connection> live = ConcurrentHashMap.newKeySet();
  private final AtomicLong stallIds = new AtomicLong();
  private volatile long delayNanos;
  private volatile boolean closed;

  /**
   * Starts a proxy to {@code target} with round-trip delay {@code delay}.
   *
   * @throws IllegalArgumentException for a delay outside [0, {@link #MAX_DELAY}]
   * @throws IOException when no port can be bound on 127.0.0.1
   */
  public static DelayProxy start(InetSocketAddress target, Duration delay) throws IOException {
    return new DelayProxy(target, delay);
  }

  /**
   * Binds 127.0.0.1 on an ephemeral port and starts forwarding; for subclasses that change how the
   * delay is split over the directions ({@link #holdNanos}).
   *
   * @throws IOException when no port can be bound on 127.0.0.1
   */
  protected DelayProxy(InetSocketAddress target, Duration delay) throws IOException {
    this.target = Objects.requireNonNull(target, "target must not be null");
    setDelay(delay);
    this.group =
        new MultiThreadIoEventLoopGroup(
            1, new DefaultThreadFactory("ceiling-delay-proxy", true), transport.ioHandlers());
    ServerBootstrap b =
        new ServerBootstrap()
            .group(group)
            .channel(transport.serverChannel())
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.AUTO_READ, false)
            .childHandler(Connection.acceptor(this, counters));
    InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    ChannelFuture bound = b.bind(new InetSocketAddress(loopback, 0)).awaitUninterruptibly();
    if (!bound.isSuccess()) {
      var unused = group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      throw new IOException("cannot listen on 127.0.0.1: " + bound.cause(), bound.cause());
    }
    this.server = bound.channel();
    long every = STALL_CHECK_EVERY.toNanos();
    var unused =
        group.next().scheduleAtFixedRate(this::checkStalls, every, every, TimeUnit.NANOSECONDS);
  }

  /**
   * Starts watching the link's health from now: every refusal, reset and stall until {@link
   * LinkWatch#end()} is counted in the returned watch. Watches are independent of each other and of
   * {@link #counters()}.
   */
  public LinkWatch watch() {
    LinkWatch w = new LinkWatch(this, System.nanoTime());
    watches.add(w);
    return w;
  }

  void unwatch(LinkWatch w) {
    watches.remove(w);
  }

  void connectionOpened(Connection c) {
    live.add(c);
    watches.forEach(LinkWatch::opened);
  }

  void connectionEnded(Connection c) {
    live.remove(c);
  }

  void refused() {
    long now = System.nanoTime();
    watches.forEach(w -> w.refused(now));
  }

  void reset() {
    if (closed) {
      return; // the proxy's own close ends every connection: not the target's doing
    }
    long now = System.nanoTime();
    watches.forEach(w -> w.reset(now));
  }

  long nextStallId() {
    return stallIds.incrementAndGet();
  }

  void stalled(long stallId, long sentNanos, long waitedNanos) {
    watches.forEach(w -> w.stalled(stallId, sentNanos, waitedNanos));
  }

  /** The stall bound in force, nanoseconds: {@link #STALL_BOUND} beyond the delay d. */
  long stallBoundNanos() {
    return STALL_BOUND.toNanos() + delayNanos;
  }

  private void checkStalls() {
    long now = System.nanoTime();
    for (Connection c : live) {
      c.checkStall(now);
    }
  }

  /** Where the relay should connect: 127.0.0.1 and the ephemeral port this proxy listens on. */
  public InetSocketAddress address() {
    return (InetSocketAddress) server.localAddress();
  }

  /** Where the proxy forwards to. */
  public InetSocketAddress target() {
    return target;
  }

  /** The round-trip delay d now in force (half in each direction). */
  public Duration delay() {
    return Duration.ofNanos(delayNanos);
  }

  /**
   * Sets the round-trip delay d for chunks arriving from now on; held chunks keep their release
   * instants, and no chunk is released before one that arrived earlier.
   *
   * @throws IllegalArgumentException for null or a delay outside [0, {@link #MAX_DELAY}]
   */
  public final void setDelay(Duration delay) {
    Objects.requireNonNull(delay, "delay must not be null");
    if (delay.isNegative() || delay.compareTo(MAX_DELAY) > 0) {
      throw new IllegalArgumentException(
          "delay must be in [0, " + MAX_DELAY.toMillis() + " ms], got " + delay);
    }
    this.delayNanos = delay.toNanos();
  }

  /** What has crossed the proxy so far; a consistent-enough snapshot to subtract. */
  public LinkCounters counters() {
    return counters.snapshot();
  }

  /** True when holds are timed to microseconds (epoll), false when to milliseconds (NIO). */
  public boolean preciseTimers() {
    return transport.precise();
  }

  /** True once {@link #close()} was called. */
  public boolean isClosed() {
    return closed;
  }

  /**
   * How long a chunk travelling in {@code direction} is held, given the round-trip delay: half of
   * it each way (the odd nanosecond on the way back), so an exchange gains exactly d.
   *
   * @param delayNanos the round-trip delay in force, nanoseconds, >= 0
   * @return the hold, nanoseconds, >= 0
   */
  protected long holdNanos(Direction direction, long delayNanos) {
    long toTarget = delayNanos / 2;
    return direction == Direction.TO_TARGET ? toTarget : delayNanos - toTarget;
  }

  /** Stops listening, closes every connection and its event loop; idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.close().awaitUninterruptibly();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
  }

  @Override
  public String toString() {
    return "delay proxy " + address() + " -> " + target + " (d=" + delay() + ")";
  }

  long delayNanos() {
    return delayNanos;
  }

  Transport transport() {
    return transport;
  }
}
