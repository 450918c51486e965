package dev.ceiling.bench.generator;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.ResourceLeakDetector;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The generator benchmark's null relay, run as its own JVM so the generator's CPU figures are its
 * own: OK true for every EVENT at once, the id cut from the frame without parsing JSON. Prints its
 * port on stdout and ends when its stdin closes.
 *
 * <p>Why Netty and one event-loop thread: the relay shares the generator's two cores, so every µs
 * it spends per event is taken from the sender under test. Here the thread that reads a batch of
 * EVENT frames writes their OKs into the channel and flushes once when the read is done ({@code
 * channelReadComplete}): one read and one write per batch, no hand-off between threads. {@link
 * JettyNullRelay} answers the same but writes each OK on its own.
 */
public final class NullRelay {
  private static final ByteBuf EVENT_PREFIX = ascii("[\"EVENT\"");
  private static final ByteBuf ID_KEY = ascii("\"id\":\"");
  private static final byte[] OK_PREFIX = "[\"OK\",\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] OK_SUFFIX = "\",true,\"\"]".getBytes(StandardCharsets.US_ASCII);
  private static final int ID_CHARS = 64;

  private NullRelay() {}

  public static void main(String[] args) throws Exception {
    // Netty's default leak detection records a stack trace for a sample of buffers: CPU on the
    // cores the generator is measured on, for buffers this relay releases by construction.
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try {
      Channel server =
          new ServerBootstrap()
              .group(group)
              .channel(NioServerSocketChannel.class)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline()
                          .addLast(new HttpServerCodec())
                          .addLast(new HttpObjectAggregator(64 * 1024))
                          .addLast(
                              new WebSocketServerProtocolHandler(
                                  WebSocketServerProtocolConfig.newBuilder()
                                      .websocketPath("/")
                                      .checkStartsWith(true)
                                      .maxFramePayloadLength(1 << 20)
                                      .build()))
                          .addLast(new OkWriter());
                    }
                  })
              .bind("127.0.0.1", 0)
              .sync()
              .channel();
      System.out.println(((InetSocketAddress) server.localAddress()).getPort());
      System.out.flush();
      // Ends when the parent closes our stdin or destroys us.
      while (System.in.read() >= 0) {
        Thread.onSpinWait();
      }
      server.close().sync();
    } finally {
      group.shutdownGracefully().sync();
    }
  }

  private static ByteBuf ascii(String s) {
    return Unpooled.unreleasableBuffer(
        Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.US_ASCII)));
  }

  /** Writes an OK for each EVENT frame; flushes once per read. */
  private static final class OkWriter extends SimpleChannelInboundHandler<TextWebSocketFrame> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, TextWebSocketFrame frame) {
      ByteBuf in = frame.content();
      int start = in.readerIndex();
      if (in.readableBytes() < EVENT_PREFIX.readableBytes()
          || !ByteBufUtil.equals(in, start, EVENT_PREFIX, 0, EVENT_PREFIX.readableBytes())) {
        return;
      }
      int at = ByteBufUtil.indexOf(ID_KEY, in);
      int id = at + ID_KEY.readableBytes();
      if (at < 0 || id + ID_CHARS > in.writerIndex()) {
        return;
      }
      ByteBuf ok = ctx.alloc().buffer(OK_PREFIX.length + ID_CHARS + OK_SUFFIX.length);
      ok.writeBytes(OK_PREFIX).writeBytes(in, id, ID_CHARS).writeBytes(OK_SUFFIX);
      // A void promise: a failed write closes the channel, which the generator counts.
      var unused = ctx.write(new TextWebSocketFrame(ok), ctx.voidPromise());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
      ctx.fireChannelReadComplete();
    }
  }
}
