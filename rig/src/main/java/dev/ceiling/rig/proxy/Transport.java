package dev.ceiling.rig.proxy;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The event loop a proxy runs on. Epoll where it loads (Linux): its scheduled tasks wake through
 * timerfd, precise to microseconds. NIO elsewhere: the JDK selector waits in whole milliseconds
 * (Netty rounds each wait to the nearest one), so a sub-millisecond hold comes out coarse.
 *
 * @param precise true for epoll's microsecond timers
 */
record Transport(
    IoHandlerFactory ioHandlers,
    Class<? extends ServerChannel> serverChannel,
    Class<? extends SocketChannel> socketChannel,
    boolean precise) {

  static Transport best() {
    if (Epoll.isAvailable()) {
      return new Transport(
          EpollIoHandler.newFactory(),
          EpollServerSocketChannel.class,
          EpollSocketChannel.class,
          true);
    }
    return new Transport(
        NioIoHandler.newFactory(), NioServerSocketChannel.class, NioSocketChannel.class, false);
  }
}
