package io.upshift.runtime.metrics;

import io.upshift.runtime.http.Body;
import io.upshift.runtime.http.HttpServer;
import io.upshift.runtime.http.Reply;
import io.upshift.runtime.http.Request;
import io.upshift.runtime.http.ServerOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code GET /metrics} in the Prometheus text format, over HTTPS when given a serving
 * certificate, to whom {@link ScrapeAccess} lets in (401 without a valid token, 403 when its user
 * may not read it). Token reviews wait on the API server, so answers are made on threads of their
 * own, not the event loop.
 */
public final class MetricsServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);
    public static final String PATH = "/metrics";

    /** What the Prometheus registry writes. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;

    private MetricsServer(HttpServer server) {
        this.server = server;
    }

    /**
     * @param scrape the exposition text, computed at each scrape
     * @param certificate the serving certificate; null serves plain HTTP
     */
    public static MetricsServer start(
            InetSocketAddress address,
            Supplier<String> scrape,
            ScrapeAccess access,
            ServingCertificate certificate)
            throws IOException, GeneralSecurityException {
        ServerOptions options =
                ServerOptions.of("metrics-http", address).withEventLoops(1).withBlockingThreads(2);
        if (certificate != null) options = options.withTls(certificate.context());
        return new MetricsServer(HttpServer.start(options, r -> answer(r, scrape, access)));
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
        ScrapeAccess.Verdict verdict = access.check(x.header("Authorization"), "get", PATH);
        if (!verdict.allowed()) {
            Reply refused = Reply.text(verdict.status(), verdict.message() + "\n");
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
