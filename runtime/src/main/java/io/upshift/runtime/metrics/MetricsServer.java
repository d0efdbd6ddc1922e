package io.upshift.runtime.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code GET /metrics} in the Prometheus text format, over HTTPS when given a serving
 * certificate, to whom {@link ScrapeAccess} lets in (401 without a valid token, 403 when its user
 * may not read it).
 */
public final class MetricsServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);
    public static final String PATH = "/metrics";

    /** What the Prometheus registry writes. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService threads;

    private MetricsServer(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
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
        HttpServer server;
        if (certificate == null) {
            server = HttpServer.create(address, 0);
        } else {
            HttpsServer https = HttpsServer.create(address, 0);
            SSLContext context = certificate.context();
            https.setHttpsConfigurator(
                    new HttpsConfigurator(context) {
                        @Override
                        public void configure(HttpsParameters params) {
                            SSLParameters p = context.getDefaultSSLParameters();
                            p.setProtocols(
                                    new String[] {
                                        "TLSv1.3", "TLSv1.2"
                                    }); // as upstream's SecureTLSConfig: nothing older
                            params.setSSLParameters(p);
                        }
                    });
            server = https;
        }
        ExecutorService threads =
                Executors.newFixedThreadPool(
                        2,
                        r -> {
                            Thread t = new Thread(r, "metrics-http");
                            t.setDaemon(true);
                            return t;
                        });
        server.setExecutor(threads);
        server.createContext("/", x -> answer(x, scrape, access));
        server.start();
        return new MetricsServer(server, threads);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void answer(HttpExchange x, Supplier<String> scrape, ScrapeAccess access)
            throws IOException {
        try (x) {
            if (!PATH.equals(x.getRequestURI().getPath())) {
                send(
                        x,
                        404,
                        "text/plain; charset=utf-8",
                        "not found: only " + PATH + " is served\n");
                return;
            }
            String method = x.getRequestMethod();
            if (!"GET".equals(method) && !"HEAD".equals(method)) {
                x.getResponseHeaders().set("Allow", "GET, HEAD");
                send(x, 405, "text/plain; charset=utf-8", "only GET is supported\n");
                return;
            }
            // Kubernetes authorization's verb for a GET or HEAD of a non-resource URL is "get"
            ScrapeAccess.Verdict verdict =
                    access.check(x.getRequestHeaders().getFirst("Authorization"), "get", PATH);
            if (!verdict.allowed()) {
                if (verdict.status() == 401)
                    x.getResponseHeaders().set("WWW-Authenticate", "Bearer");
                send(x, verdict.status(), "text/plain; charset=utf-8", verdict.message() + "\n");
                return;
            }
            String body;
            try {
                body = scrape.get();
            } catch (RuntimeException e) {
                LOG.warn("metrics: scrape failed: {}", e.toString());
                send(
                        x,
                        503,
                        "text/plain; charset=utf-8",
                        "metrics cannot be read now: " + e.getMessage() + "\n");
                return;
            }
            send(x, 200, CONTENT_TYPE, body);
        }
    }

    private static void send(HttpExchange x, int status, String type, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", type);
        boolean head = "HEAD".equals(x.getRequestMethod().toUpperCase(Locale.ROOT));
        x.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = x.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
