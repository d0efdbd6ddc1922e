package io.upshift.runtime.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections an {@link HttpServer} holds, at most {@link Limits#maxConnections()}: one more is
 * answered {@code 503} with {@code Retry-After} and {@code Connection: close} (after the TLS
 * handshake, on HTTPS) and closed once the client has read it, or after a second; it is never given
 * to the endpoint. Refusals are counted ({@link #refused()}, for a metric) and logged once when the
 * server reaches its cap, again when it is back under 90% of it with how many were refused
 * meanwhile, and at most once a minute while it keeps reaching it: not once a connection.
 */
// Netty's close, writes on a void promise and shutdown return futures nobody needs to wait on
@SuppressWarnings("FutureReturnValueIgnored")
final class ConnectionCap {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionCap.class);

    /** Refused connections still open (their 503 being read) past which others are just closed. */
    private static final int MAX_LINGERING = 1024;

    private static final long LOG_EVERY = TimeUnit.MINUTES.toNanos(1);

    private final String server;
    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger lingering = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicInteger lines = new AtomicInteger();

    // guarded by this: whether the server is at its cap, since when it has refused how many
    private boolean atCap;
    private long refusedBefore;
    private long lastLogged = System.nanoTime() - LOG_EVERY;

    /**
     * @param max 0 for no cap
     */
    ConnectionCap(String server, int max) {
        this.server = server;
        this.max = max;
    }

    /** Takes a place for {@code ch}, given back when it closes; false when there is none. */
    boolean admit(Channel ch) {
        int now = open.incrementAndGet();
        if (max > 0 && now > max) {
            open.decrementAndGet();
            refusedOne();
            return false;
        }
        ch.closeFuture().addListener(f -> closed(open.decrementAndGet()));
        return true;
    }

    int open() {
        return open.get();
    }

    long refused() {
        return refused.get();
    }

    int lines() {
        return lines.get();
    }

    private void refusedOne() {
        long n = refused.incrementAndGet();
        long now = System.nanoTime();
        synchronized (this) {
            if (atCap && now - lastLogged < LOG_EVERY) return;
            if (!atCap) refusedBefore = n - 1;
            atCap = true;
            lastLogged = now;
        }
        lines.incrementAndGet();
        LOG.warn(
                "{}: {} connections open, its cap: more are answered 503 and closed until some"
                        + " close",
                server,
                max);
    }

    private void closed(int nowOpen) {
        if (max == 0 || nowOpen > max - max / 10) return;
        long meanwhile;
        synchronized (this) {
            if (!atCap) return;
            atCap = false;
            meanwhile = refused.get() - refusedBefore;
        }
        lines.incrementAndGet();
        LOG.info(
                "{}: {} connections open, under its cap of {} again; {} refused meanwhile",
                server,
                nowOpen,
                max,
                meanwhile);
    }

    /** What a connection over the cap gets: 503 and a close. */
    ChannelInboundHandlerAdapter refusal() {
        return new Refusal();
    }

    private final class Refusal extends ChannelInboundHandlerAdapter {
        private boolean counted;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            counted = lingering.incrementAndGet() <= MAX_LINGERING;
            ctx.channel().closeFuture().addListener(f -> lingering.decrementAndGet());
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (!counted) {
                ctx.close(); // a flood of them: not even an answer
                return;
            }
            ctx.executor().schedule(() -> ctx.close(), 1, TimeUnit.SECONDS);
            Reply reply =
                    Reply.text(
                                    503,
                                    "this server holds as many connections as it may; try again"
                                            + " later\n")
                            .with("Retry-After", "1");
            ctx.write(reply.head(), ctx.voidPromise());
            ctx.write(
                    HttpDate.ending(System.currentTimeMillis(), HttpDate.Ending.CLOSE),
                    ctx.voidPromise());
            ctx.writeAndFlush(reply.body().buffer())
                    .addListener(
                            f -> {
                                // as Connection's half-close: the client reads the answer, then
                                // closes; TLS has a closing of its own
                                if (ctx.channel() instanceof DuplexChannel d
                                        && ctx.pipeline().get(SslHandler.class) == null)
                                    d.shutdownOutput();
                                else ctx.close();
                            })
                    .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg); // what it sends is not read
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
