package io.upshift.runtime.metrics;

import io.upshift.runtime.http.Body;
import io.upshift.runtime.http.HttpServer;
import io.upshift.runtime.http.Limits;
import io.upshift.runtime.http.Reply;
import io.upshift.runtime.http.Request;
import io.upshift.runtime.http.ServerOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code GET /metrics} in the Prometheus text format, over HTTPS with a serving certificate
 * ({@link #start}), or over plain HTTP only when asked by name ({@link #startPlainHttp}), to whom
 * {@link ScrapeAccess} lets in (401 without a valid token, 403 when its user may not read it, 429
 * when its token reviews are over budget). Token reviews wait on the API server, so answers are
 * made on threads of their own, not the event loop; at most {@link #MAX_CONNECTIONS} connections
 * are held.
 */
public final class MetricsServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);
    public static final String PATH = "/metrics";

    /** What the Prometheus registry writes. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** Scrapers hold one connection each: a Prometheus pair, a person with curl. */
    static final int MAX_CONNECTIONS = 64;

    private final HttpServer server;

    private MetricsServer(HttpServer server) {
        this.server = server;
    }

    /**
     * Over HTTPS (TLS 1.3 and 1.2).
     *
     * @param scrape the exposition text, computed at each scrape
     * @param certificate the serving certificate
     */
    public static MetricsServer start(
            InetSocketAddress address,
            Supplier<String> scrape,
            ScrapeAccess access,
            ServingCertificate certificate)
            throws IOException, GeneralSecurityException {
        Objects.requireNonNull(certificate, "a serving certificate (else startPlainHttp)");
        return new MetricsServer(
                HttpServer.start(
                        options("metrics-https", address).withTls(certificate.context()),
                        r -> answer(r, scrape, access)));
    }

    /**
     * Over plain HTTP: bearer tokens and the metrics cross the network readable. Only where asked
     * for by name (the operator's {@code --metrics-plain-http}).
     */
    public static MetricsServer startPlainHttp(
            InetSocketAddress address, Supplier<String> scrape, ScrapeAccess access)
            throws IOException {
        return new MetricsServer(
                HttpServer.start(options("metrics-http", address), r -> answer(r, scrape, access)));
    }

    private static ServerOptions options(String name, InetSocketAddress address) {
        return ServerOptions.of(name, address)
                .withEventLoops(1)
                .withBlockingThreads(2)
                .withLimits(Limits.DEFAULT.withMaxConnections(MAX_CONNECTIONS));
    }

    public int port() {
        return server.port();
    }

    static Reply answer(Request x, Supplier<String> scrape, ScrapeAccess access) {
        if (!PATH.equals(x.path()))
            return Reply.text(404, "not found: only " + PATH + " is served\n");
        if (!"GET".equals(x.method()) && !x.isHead())
            return Reply.text(405, "only GET is supported\n").with("Allow", "GET, HEAD");
        // Kubernetes authorization's verb for a GET or HEAD of a non-resource URL is "get"
        ScrapeAccess.Verdict verdict =
                access.check(x.header("Authorization"), "get", PATH, x.source());
        if (!verdict.allowed()) {
            Reply refused = Reply.text(verdict.status(), verdict.message() + "\n");
            if (verdict.retryAfter() > 0)
                refused = refused.with("Retry-After", String.valueOf(verdict.retryAfter()));
            return verdict.status() == 401 ? refused.with("WWW-Authenticate", "Bearer") : refused;
        }
        String body;
        try {
            body = scrape.get();
        } catch (RuntimeException e) {
            LOG.warn("metrics: scrape failed: {}", e.toString());
            return Reply.text(503, "metrics cannot be read now: " + e.getMessage() + "\n");
        }
        return Reply.of(200, CONTENT_TYPE, Body.of(body));
    }

    @Override
    public void close() {
        server.close();
    }
}
