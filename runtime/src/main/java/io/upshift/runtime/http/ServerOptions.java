package io.upshift.runtime.http;

import java.net.InetSocketAddress;
import javax.net.ssl.SSLContext;

/**
 * How an {@link HttpServer} listens.
 *
 * @param name names its threads
 * @param address where it listens (port 0: any free one)
 * @param eventLoops threads that read requests and write answers
 * @param blockingThreads 0 when the endpoint answers at once (it runs on the event loops); else the
 *     threads the endpoint runs on, for endpoints that wait (on the API server, say), each
 *     connection's requests answered one after the other
 * @param limits what one connection may ask
 * @param tls a server context for HTTPS (TLS 1.3 and 1.2 only); null for plain HTTP
 */
public record ServerOptions(
        String name,
        InetSocketAddress address,
        int eventLoops,
        int blockingThreads,
        Limits limits,
        SSLContext tls) {

    public ServerOptions {
        if (eventLoops < 1) throw new IllegalArgumentException("at least one event loop");
        if (blockingThreads < 0)
            throw new IllegalArgumentException("blocking threads cannot be negative");
    }

    /** As many event loops as processors, answers on them, default limits, plain HTTP. */
    public static ServerOptions of(String name, InetSocketAddress address) {
        return new ServerOptions(
                name, address, Runtime.getRuntime().availableProcessors(), 0, Limits.DEFAULT, null);
    }

    public ServerOptions withEventLoops(int n) {
        return new ServerOptions(name, address, n, blockingThreads, limits, tls);
    }

    public ServerOptions withBlockingThreads(int n) {
        return new ServerOptions(name, address, eventLoops, n, limits, tls);
    }

    public ServerOptions withLimits(Limits l) {
        return new ServerOptions(name, address, eventLoops, blockingThreads, l, tls);
    }

    public ServerOptions withTls(SSLContext context) {
        return new ServerOptions(name, address, eventLoops, blockingThreads, limits, context);
    }
}
