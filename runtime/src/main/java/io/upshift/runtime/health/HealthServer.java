package io.upshift.runtime.health;

import io.upshift.runtime.http.HttpServer;
import io.upshift.runtime.http.Limits;
import io.upshift.runtime.http.Reply;
import io.upshift.runtime.http.Request;
import io.upshift.runtime.http.ServerOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

/**
 * The kubelet's probes, over plain HTTP on a port of their own (the kubelet sends no token, and
 * /metrics asks for one): {@code GET /healthz} answers 200 while the process runs; {@code GET
 * /readyz} answers 200 when the replica is where it should be (waiting for the Lease, or leading
 * with its controllers started), else 503 saying why.
 */
public final class HealthServer implements AutoCloseable {
    public static final String LIVE = "/healthz";
    public static final String READY = "/readyz";

    /** The kubelet holds one or two; more are answered 503 ({@link Limits#maxConnections()}). */
    static final int MAX_CONNECTIONS = 64;

    private final HttpServer server;

    private HealthServer(HttpServer server) {
        this.server = server;
    }

    /**
     * @param unready why the replica is not ready, asked at each probe (on a thread of its own, so
     *     it may wait); null when it is
     */
    public static HealthServer start(InetSocketAddress address, Supplier<String> unready)
            throws IOException {
        ServerOptions options =
                ServerOptions.of("health-http", address)
                        .withEventLoops(1)
                        .withBlockingThreads(1)
                        .withLimits(Limits.DEFAULT.withMaxConnections(MAX_CONNECTIONS));
        return new HealthServer(HttpServer.start(options, r -> answer(r, unready)));
    }

    public int port() {
        return server.port();
    }

    private static Reply answer(Request x, Supplier<String> unready) {
        if (!"GET".equals(x.method()))
            return Reply.text(405, "only GET is supported\n").with("Allow", "GET");
        if (LIVE.equals(x.path())) return Reply.text(200, "ok\n");
        if (READY.equals(x.path())) {
            String why = unready.get();
            return why == null
                    ? Reply.text(200, "ok\n")
                    : Reply.text(503, "not ready: " + why + "\n");
        }
        return Reply.text(404, "not found: " + LIVE + " and " + READY + " are served\n");
    }

    @Override
    public void close() {
        server.close();
    }
}
