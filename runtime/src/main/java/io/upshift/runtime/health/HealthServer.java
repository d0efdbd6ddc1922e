package io.upshift.runtime.health;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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

    private final HttpServer server;
    private final ExecutorService threads;

    private HealthServer(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    /**
     * @param unready why the replica is not ready, asked at each probe; null when it is
     */
    public static HealthServer start(InetSocketAddress address, Supplier<String> unready)
            throws IOException {
        HttpServer server = HttpServer.create(address, 0);
        ExecutorService threads =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "health-http");
                            t.setDaemon(true);
                            return t;
                        });
        server.setExecutor(threads);
        server.createContext("/", x -> answer(x, unready));
        server.start();
        return new HealthServer(server, threads);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void answer(HttpExchange x, Supplier<String> unready) throws IOException {
        try (x) {
            String path = x.getRequestURI().getPath();
            if (!"GET".equals(x.getRequestMethod())) {
                send(x, 405, "only GET is supported\n");
            } else if (LIVE.equals(path)) {
                send(x, 200, "ok\n");
            } else if (READY.equals(path)) {
                String why = unready.get();
                send(x, why == null ? 200 : 503, why == null ? "ok\n" : "not ready: " + why + "\n");
            } else {
                send(x, 404, "not found: " + LIVE + " and " + READY + " are served\n");
            }
        }
    }

    private static void send(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        x.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
