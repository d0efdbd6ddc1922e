package io.upshift.graph.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.upshift.graph.model.GraphException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The update graph service: {@code GET <prefix>/graph} and {@code <prefix>/v1/graph} with {@code
 * channel} (required), {@code arch} (default amd64), {@code version} and {@code id}; {@code
 * /openapi}; {@code /healthz}, {@code /readyz} and {@code /metrics}. Inputs are polled; a change is
 * rebuilt off the request path and swapped in whole; an invalid change keeps the last good graph
 * and is reported in the log, {@code /readyz} and metrics.
 */
public final class GraphService implements AutoCloseable {

    public static final String DEFAULT_PREFIX = "/api/upgrades_info";
    static final List<String> MEDIA_TYPES =
            List.of("application/json", "application/vnd.redhat.cincinnati.v1+json");
    private static final Pattern CHANNEL = Pattern.compile("^[0-9a-z\\-.]+$");
    private static final Pattern ARCH = Pattern.compile("^[0-9a-z]+$");

    /** What {@link PrometheusMeterRegistry#scrape()} writes. */
    private static final String METRICS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final GraphSource source;
    private final Clock clock;
    private final Consumer<String> log;
    private final HttpServer server;
    private final ExecutorService workers;
    private final ScheduledExecutorService poller =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "graph-reload");
                        t.setDaemon(true);
                        return t;
                    });
    private final AtomicReference<GraphState> current = new AtomicReference<>();
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private volatile String fingerprint = "";

    /**
     * The service's own meters (not the JVM's): graph requests by status, reloads, and what is
     * served now.
     */
    private final PrometheusMeterRegistry metrics =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private final Counter reloads =
            Counter.builder("upshift.graph.reloads")
                    .description("Successful reloads after an input change.")
                    .register(metrics);
    private final Counter reloadErrors =
            Counter.builder("upshift.graph.reload.errors")
                    .description("Reloads that failed; the last good graph is still served.")
                    .register(metrics);

    private GraphService(
            GraphSource source,
            InetSocketAddress address,
            String prefix,
            int threads,
            Clock clock,
            Consumer<String> log)
            throws IOException {
        this.source = source;
        this.clock = clock;
        this.log = log;
        this.server = HttpServer.create(address, 1024);
        this.workers = Executors.newFixedThreadPool(threads);
        server.setExecutor(workers);
        server.createContext(prefix + "/graph", this::graph);
        server.createContext(prefix + "/v1/graph", this::graph);
        server.createContext(
                "/openapi", x -> send(x, 200, "application/json", OpenApi.document(prefix)));
        server.createContext(
                prefix + "/openapi",
                x -> send(x, 200, "application/json", OpenApi.document(prefix)));
        server.createContext(
                "/healthz",
                x -> send(x, 200, "text/plain", "ok\n".getBytes(StandardCharsets.UTF_8)));
        server.createContext("/readyz", this::ready);
        server.createContext("/metrics", this::metrics);
        Gauge.builder("upshift.graph.last.reload.failed", lastError, e -> e.get() == null ? 0 : 1)
                .description("1 while the newest inputs are invalid.")
                .register(metrics);
        Gauge.builder("upshift.graph.releases", current, s -> s.get() == null ? 0 : s.get().nodes())
                .description("Releases in the served graph, all channels and architectures.")
                .register(metrics);
    }

    /**
     * Loads the inputs (failing when the first load fails: there is no last good graph to serve),
     * starts serving and polls for changes every {@code poll}.
     */
    public static GraphService start(
            GraphSource source,
            InetSocketAddress address,
            String prefix,
            Duration poll,
            int threads,
            Clock clock,
            Consumer<String> log)
            throws IOException, GraphException {
        if (!java.nio.file.Files.isDirectory(source.graphData())) {
            throw new GraphException(
                    "invalid_graph_data",
                    "graph data directory " + source.graphData() + " does not exist");
        }
        GraphService s = new GraphService(source, address, prefix, threads, clock, log);
        s.fingerprint = s.source.fingerprint();
        s.current.set(new GraphState(s.source.build(), clock.instant()));
        s.server.start();
        s.poller.scheduleWithFixedDelay(
                s::reloadIfChanged, poll.toMillis(), poll.toMillis(), TimeUnit.MILLISECONDS);
        log.accept(
                "serving "
                        + s.current.get().nodes()
                        + " releases on http://"
                        + address.getHostString()
                        + ":"
                        + s.port()
                        + prefix
                        + "/graph");
        return s;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * Rebuilds when an input file changed; keeps the last good graph when the new inputs are
     * invalid.
     */
    void reloadIfChanged() {
        try {
            String now = source.fingerprint();
            if (now.equals(fingerprint)) return;
            fingerprint = now;
            GraphState fresh = new GraphState(source.build(), clock.instant());
            current.set(fresh);
            lastError.set(null);
            reloads.increment();
            log.accept("reloaded: " + fresh.nodes() + " releases");
        } catch (GraphException | IOException | RuntimeException e) {
            reloadErrors.increment();
            lastError.set(e.getMessage());
            log.accept(
                    "reload failed, still serving the graph loaded at "
                            + current.get().loadedAt()
                            + ": "
                            + e.getMessage());
        }
    }

    private void graph(HttpExchange x) throws IOException {
        try {
            if (!"GET".equals(x.getRequestMethod()) && !"HEAD".equals(x.getRequestMethod())) {
                error(x, 405, "invalid_method", "only GET is supported");
                return;
            }
            String accept = x.getRequestHeaders().getFirst("Accept");
            if (!acceptable(accept)) {
                error(
                        x,
                        406,
                        "invalid_content_type",
                        "invalid Content-Type requested: "
                                + accept
                                + "; use one of "
                                + MEDIA_TYPES);
                return;
            }
            Map<String, String> q = query(x.getRequestURI().getRawQuery());
            String channel = q.get("channel");
            if (channel == null || channel.isEmpty()) {
                error(x, 400, "missing_params", "mandatory client parameters missing: channel");
                return;
            }
            if (!CHANNEL.matcher(channel).matches()) {
                error(
                        x,
                        400,
                        "invalid_params",
                        "channel '"
                                + channel
                                + "' does not match regex '"
                                + CHANNEL.pattern()
                                + "'");
                return;
            }
            String arch = q.getOrDefault("arch", "amd64");
            if (!ARCH.matcher(arch).matches()) {
                error(
                        x,
                        400,
                        "invalid_params",
                        "arch '" + arch + "' does not match regex '" + ARCH.pattern() + "'");
                return;
            }
            send(x, 200, MEDIA_TYPES.get(0), current.get().json(channel, arch));
        } catch (GraphException e) {
            error(x, 500, "failed_plugin_execution", e.getMessage());
        } catch (RuntimeException e) {
            error(x, 500, "internal_error", String.valueOf(e.getMessage()));
        }
    }

    static boolean acceptable(String accept) {
        if (accept == null || accept.isBlank()) return true;
        for (String part : accept.split(",")) {
            String type = part.split(";")[0].strip();
            if (type.equals("*/*") || type.equals("application/*") || MEDIA_TYPES.contains(type))
                return true;
        }
        return false;
    }

    private void ready(HttpExchange x) throws IOException {
        GraphState s = current.get();
        String err = lastError.get();
        String body =
                "{\"ready\":true,\"releases\":"
                        + s.nodes()
                        + ",\"loadedAt\":\""
                        + s.loadedAt()
                        + "\""
                        + (err == null
                                ? ""
                                : ",\"lastReloadError\":"
                                        + com.fasterxml.jackson.databind.node.TextNode.valueOf(err))
                        + "}\n";
        send(x, 200, "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    private void metrics(HttpExchange x) throws IOException {
        send(x, 200, METRICS_TYPE, metrics.scrape().getBytes(StandardCharsets.UTF_8));
    }

    private void error(HttpExchange x, int status, String kind, String value) throws IOException {
        String body =
                "{\"kind\":\""
                        + kind
                        + "\",\"value\":"
                        + com.fasterxml.jackson.databind.node.TextNode.valueOf(value)
                        + "}";
        send(x, status, "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    private void send(HttpExchange x, int status, String type, byte[] body) throws IOException {
        if (x.getHttpContext().getPath().endsWith("/graph")) {
            Counter.builder("upshift.graph.requests")
                    .description("Graph requests by HTTP status.")
                    .tag("code", String.valueOf(status))
                    .register(metrics)
                    .increment();
        }
        x.getResponseHeaders().set("Content-Type", type);
        boolean head = "HEAD".equals(x.getRequestMethod());
        x.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        }
        x.close();
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw == null) return q;
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k =
                    URLDecoder.decode(
                            eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v =
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            q.putIfAbsent(k, v);
        }
        return q;
    }

    @Override
    public void close() {
        poller.shutdownNow();
        server.stop(0);
        workers.shutdownNow();
    }
}
