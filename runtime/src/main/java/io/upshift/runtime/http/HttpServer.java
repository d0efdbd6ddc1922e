package io.upshift.runtime.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;

/**
 * An HTTP/1.1 server on Netty for Upshift's endpoints (the update graph, metrics, probes): event
 * loops as {@link ServerOptions} says, keep-alive, the {@link Limits} kept for every connection and
 * for the server ({@link ConnectionCap}), and a plain answer to what is not a request or not one it
 * may answer (400, 414, 431, 429, 501, 505: {@link RequestDecoder}, {@link Framing}) before the
 * endpoint sees it. Requests are read by Netty's HTTP/1.x decoder; answers are written as the bytes
 * their {@link Reply} encoded once (no header map per answer).
 */
// Netty's close, writes on a void promise and shutdown return futures nobody needs to wait on
@SuppressWarnings("FutureReturnValueIgnored")
public final class HttpServer implements AutoCloseable {
    /** As upstream's SecureTLSConfig: nothing older. */
    private static final String[] TLS_PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final EventLoopGroup loops;
    private final ExecutorService blocking;
    private final Channel listening;
    private final ConnectionCap cap;

    private HttpServer(
            EventLoopGroup loops, ExecutorService blocking, Channel listening, ConnectionCap cap) {
        this.loops = loops;
        this.blocking = blocking;
        this.listening = listening;
        this.cap = cap;
    }

    public static HttpServer start(ServerOptions options, Endpoint endpoint) throws IOException {
        DefaultThreadFactory threads = new DefaultThreadFactory(options.name(), true);
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup loops =
                epoll
                        ? new EpollEventLoopGroup(options.eventLoops(), threads)
                        : new NioEventLoopGroup(options.eventLoops(), threads);
        ExecutorService blocking =
                options.blockingThreads() == 0
                        ? null
                        : Executors.newFixedThreadPool(
                                options.blockingThreads(),
                                new DefaultThreadFactory(options.name() + "-answer", true));
        Limits limits = options.limits();
        ConnectionCap cap = new ConnectionCap(options.name(), limits.maxConnections());
        HttpDecoderConfig decoding =
                new HttpDecoderConfig()
                        .setMaxInitialLineLength(limits.maxRequestLine())
                        .setMaxHeaderSize(limits.maxHeaderSize())
                        .setMaxChunkSize(8192)
                        // headers are never forwarded nor echoed in a head: a value is checked
                        // when it is read (Request.header), not all of them for every request
                        .setValidateHeaders(false);
        ServerBootstrap bootstrap =
                new ServerBootstrap()
                        .group(loops)
                        .channel(
                                epoll
                                        ? EpollServerSocketChannel.class
                                        : NioServerSocketChannel.class)
                        .option(ChannelOption.SO_BACKLOG, 1024)
                        .option(ChannelOption.SO_REUSEADDR, true)
                        .childOption(ChannelOption.TCP_NODELAY, true)
                        .childHandler(
                                new ChannelInitializer<Channel>() {
                                    @Override
                                    protected void initChannel(Channel ch) {
                                        boolean admitted = cap.admit(ch);
                                        if (options.tls() != null) {
                                            SSLEngine engine = options.tls().createSSLEngine();
                                            engine.setUseClientMode(false);
                                            engine.setEnabledProtocols(TLS_PROTOCOLS);
                                            ch.pipeline().addLast(new SslHandler(engine));
                                        }
                                        if (!admitted) {
                                            ch.pipeline().addLast(cap.refusal());
                                            return;
                                        }
                                        ch.pipeline()
                                                .addLast(new RequestDecoder(decoding))
                                                .addLast(
                                                        new Connection(endpoint, limits, blocking));
                                    }
                                });
        ChannelFuture bound = bootstrap.bind(options.address()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            loops.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            if (blocking != null) blocking.shutdownNow();
            Throwable cause = bound.cause();
            throw new IOException(
                    "cannot listen on "
                            + options.address().getHostString()
                            + ":"
                            + options.address().getPort()
                            + ": "
                            + cause.getMessage(),
                    cause);
        }
        return new HttpServer(loops, blocking, bound.channel(), cap);
    }

    public int port() {
        return ((InetSocketAddress) listening.localAddress()).getPort();
    }

    /** Connections open now (those refused over the cap left out). */
    public int openConnections() {
        return cap.open();
    }

    /** Connections refused since the start because the server held its cap. */
    public long refusedConnections() {
        return cap.refused();
    }

    /** Lines logged about the cap (for tests: not one per refused connection). */
    int capLines() {
        return cap.lines();
    }

    /** Stops listening and closes every connection. */
    @Override
    public void close() {
        listening.close().awaitUninterruptibly();
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        if (blocking != null) blocking.shutdownNow();
    }
}
