package io.upshift.testkit;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * An HTTPS reverse proxy on 127.0.0.1 that lets through only requests bearing the expected token,
 * as OpenShift's thanos-querier sits behind kube-rbac-proxy: {@code Authorization: Bearer <token>}
 * or 401 (and the request never reaches the back end); the token asked for may change while it runs
 * (a rotated ServiceAccount token). GETs and POSTs are forwarded to {@code backend} as they came.
 */
public final class BearerTokenFront implements AutoCloseable {

    private final HttpsServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger forwarded = new AtomicInteger();

    private BearerTokenFront(HttpsServer server) {
        this.server = server;
    }

    /** Serves {@code tls}, asking for the token {@code token} gives at each request. */
    public static BearerTokenFront start(URI backend, SSLContext tls, Supplier<String> token)
            throws IOException {
        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        BearerTokenFront front = new BearerTokenFront(server);
        server.createContext(
                "/",
                x -> {
                    try (x) {
                        String auth = x.getRequestHeaders().getFirst("Authorization");
                        if (auth == null || !auth.equals("Bearer " + token.get())) {
                            front.refused.incrementAndGet();
                            byte[] body = "Unauthorized\n".getBytes(StandardCharsets.UTF_8);
                            x.sendResponseHeaders(401, body.length);
                            x.getResponseBody().write(body);
                            return;
                        }
                        front.forwarded.incrementAndGet();
                        byte[] in;
                        try (InputStream body = x.getRequestBody()) {
                            in = body.readAllBytes();
                        }
                        HttpRequest.Builder out =
                                HttpRequest.newBuilder(
                                                URI.create(backend + x.getRequestURI().toString()))
                                        .timeout(Duration.ofSeconds(30))
                                        .method(
                                                x.getRequestMethod(),
                                                in.length == 0
                                                        ? HttpRequest.BodyPublishers.noBody()
                                                        : HttpRequest.BodyPublishers.ofByteArray(
                                                                in));
                        String type = x.getRequestHeaders().getFirst("Content-Type");
                        if (type != null) out.header("Content-Type", type);
                        HttpResponse<byte[]> answer =
                                front.http.send(
                                        out.build(), HttpResponse.BodyHandlers.ofByteArray());
                        answer.headers()
                                .firstValue("Content-Type")
                                .ifPresent(t -> x.getResponseHeaders().set("Content-Type", t));
                        x.sendResponseHeaders(
                                answer.statusCode(),
                                answer.body().length == 0 ? -1 : answer.body().length);
                        x.getResponseBody().write(answer.body());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        server.start();
        return front;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Requests answered 401. */
    public int refused() {
        return refused.get();
    }

    /** Requests let through to the back end. */
    public int forwarded() {
        return forwarded.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
