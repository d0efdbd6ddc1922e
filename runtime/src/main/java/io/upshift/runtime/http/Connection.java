package io.upshift.runtime.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of an {@link HttpServer}, on its event loop: keeps the {@link Limits} (a request
 * head within the idle timeout, a request budget), answers what the decoder could not read (414,
 * 431, 400, 505) and what {@link Framing} refuses (400, 501), and asks the endpoint for the rest,
 * in order; a connection whose client would send more than the server reads (a body, a request too
 * long, a request it cannot frame) is answered, then closed.
 */
// Netty's close, writes on a void promise and shutdown return futures nobody needs to wait on
@SuppressWarnings("FutureReturnValueIgnored")
final class Connection extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(Connection.class);

    private final Endpoint endpoint;
    private final Limits limits;
    private final Executor blocking; // null: the endpoint answers on the event loop
    private final long idleNanos;

    private RequestRate rate;

    /** The client's address (null when the channel has none, as an embedded one). */
    private InetAddress source;

    /** When the connection started waiting for a request head; -1 while one is being answered. */
    private long waitingSince;

    /** Whether the connection was answered for the last time: what comes in is dropped. */
    private boolean finished;

    private boolean unflushed;
    private ScheduledFuture<?> idleCheck;

    /** Requests waiting for a blocking endpoint, answered in order. */
    private final ArrayDeque<Request> queued = new ArrayDeque<>();

    private boolean busy;

    Connection(Endpoint endpoint, Limits limits, Executor blocking) {
        this.endpoint = endpoint;
        this.limits = limits;
        this.blocking = blocking;
        this.idleNanos = limits.idleTimeout().toNanos();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress a) source = a.getAddress();
        long now = System.nanoTime();
        rate = new RequestRate(limits.requestsPerSecond(), now);
        waitingSince = now;
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(10), idleNanos / 4);
        idleCheck =
                ctx.executor()
                        .scheduleAtFixedRate(
                                () -> closeIfIdle(ctx), period, period, TimeUnit.NANOSECONDS);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (idleCheck != null) idleCheck.cancel(false);
        queued.clear();
        super.channelInactive(ctx);
    }

    private void closeIfIdle(ChannelHandlerContext ctx) {
        if (waitingSince >= 0 && System.nanoTime() - waitingSince >= idleNanos) ctx.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (finished) return;
            if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
                refuse(ctx, o.decoderResult());
            } else if (msg instanceof HttpRequest head) {
                started(ctx, head);
            }
        } finally {
            ReferenceCountUtil.release(msg); // bodies are not read
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (unflushed) {
            unflushed = false;
            ctx.flush();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        // a client that does not read its answers is not read either
        reading(ctx);
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug(
                "closing a connection from {}: {}",
                ctx.channel().remoteAddress(),
                cause.toString());
        ctx.close();
    }

    private void reading(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(ctx.channel().isWritable() && !busy);
    }

    private void started(ChannelHandlerContext ctx, HttpRequest head) {
        waitingSince = -1;
        RequestDecoder.Refused refused = Framing.check(head);
        // a body is not read: the connection is closed after the answer rather than drained; so
        // too after a request that cannot be framed, whose next bytes cannot be told apart from a
        // request
        boolean body =
                refused != null
                        || HttpUtil.isTransferEncodingChunked(head)
                        || HttpUtil.getContentLength(head, 0L) > 0;
        Request request = new Request(head, HttpUtil.isKeepAlive(head) && !body, source);
        if (refused != null) request.refusal = refusal(refused);
        if (refused == null && !rate.take(System.nanoTime())) {
            send(
                    ctx,
                    request,
                    Reply.text(
                                    429,
                                    "too many requests on this connection: at most "
                                            + limits.requestsPerSecond()
                                            + " a second\n")
                            .with("Retry-After", "1"),
                    false);
        } else if (blocking == null) {
            send(ctx, request, answer(request), false);
        } else if (busy) {
            queued.add(request);
        } else {
            answerElsewhere(ctx, request);
        }
    }

    private Reply answer(Request request) {
        if (request.refusal != null) return request.refusal;
        try {
            return endpoint.answer(request);
        } catch (Request.MalformedRequest e) {
            request.keepAlive = false; // what else it sent cannot be trusted either
            return Reply.text(400, e.getMessage() + "\n");
        } catch (RuntimeException e) {
            LOG.warn("{} {}: {}", request.method(), request.path(), e.toString());
            return Reply.text(500, "internal error: " + e.getMessage() + "\n");
        }
    }

    /** On a blocking thread, then written from the event loop; the next request waits for it. */
    private void answerElsewhere(ChannelHandlerContext ctx, Request request) {
        busy = true;
        waitingSince = -1;
        reading(ctx);
        try {
            blocking.execute(
                    () -> {
                        Reply reply = answer(request);
                        ctx.executor()
                                .execute(
                                        () -> {
                                            send(ctx, request, reply, true);
                                            busy = false;
                                            Request next = queued.poll();
                                            if (next != null
                                                    && !finished
                                                    && ctx.channel().isActive())
                                                answerElsewhere(ctx, next);
                                            else reading(ctx);
                                        });
                    });
        } catch (RejectedExecutionException e) {
            ctx.close(); // the server is stopping
        }
    }

    /** What the decoder could not read: 414, 431 or 400; then the connection is done. */
    private void refuse(ChannelHandlerContext ctx, DecoderResult result) {
        Throwable cause = result.cause();
        Reply reply;
        if (cause instanceof TooLongHttpLineException) {
            reply =
                    Reply.text(
                            414,
                            "the request line is longer than "
                                    + limits.maxRequestLine()
                                    + " bytes\n");
        } else if (cause instanceof TooLongHttpHeaderException) {
            reply =
                    Reply.text(
                            431,
                            "the request headers are larger than "
                                    + limits.maxHeaderSize()
                                    + " bytes\n");
        } else if (cause instanceof RequestDecoder.Refused r) {
            reply = refusal(r);
        } else {
            reply = Reply.text(400, "not an HTTP/1.x request: " + cause.getMessage() + "\n");
        }
        finished = true;
        write(ctx, false, false, false, reply).addListener(f -> halfClose(ctx));
        ctx.flush();
    }

    private static Reply refusal(RequestDecoder.Refused r) {
        return Reply.text(r.status, r.getMessage() + "\n");
    }

    private void send(ChannelHandlerContext ctx, Request request, Reply reply, boolean flush) {
        ChannelFuture written =
                write(ctx, request.isHead(), request.keepAlive, request.http10, reply);
        if (flush) ctx.flush();
        else unflushed = true;
        if (request.keepAlive) {
            waitingSince = System.nanoTime();
        } else {
            finished = true;
            written.addListener(f -> halfClose(ctx));
        }
    }

    /**
     * Stops writing and lets the client read the answer and close; what it still sends is dropped
     * until then, or until the idle timeout (closing at once could reset the connection under an
     * answer the client has not read).
     */
    private void halfClose(ChannelHandlerContext ctx) {
        waitingSince = System.nanoTime();
        if (ctx.channel() instanceof DuplexChannel duplex
                && ctx.pipeline().get(SslHandler.class) == null) {
            duplex.shutdownOutput();
        } else {
            ctx.close(); // TLS has its own closing
        }
    }

    /** The head, its ending and the body (none to a HEAD), flushed together. */
    private ChannelFuture write(
            ChannelHandlerContext ctx,
            boolean head,
            boolean keepAlive,
            boolean http10,
            Reply reply) {
        HttpDate.Ending ending =
                !keepAlive
                        ? HttpDate.Ending.CLOSE
                        : http10 ? HttpDate.Ending.KEEP_ALIVE : HttpDate.Ending.KEEP;
        ctx.write(reply.head(), ctx.voidPromise());
        ByteBuf end = HttpDate.ending(System.currentTimeMillis(), ending);
        if (head || reply.body().length() == 0)
            return ctx.write(end).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        ctx.write(end, ctx.voidPromise());
        return ctx.write(reply.body().buffer())
                .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }
}
