package io.upshift.graph.server;

import com.fasterxml.jackson.databind.node.TextNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.upshift.graph.model.GraphException;
import io.upshift.runtime.http.Body;
import io.upshift.runtime.http.ContentCodings;
import io.upshift.runtime.http.HttpServer;
import io.upshift.runtime.http.Limits;
import io.upshift.runtime.http.Reply;
import io.upshift.runtime.http.Request;
import io.upshift.runtime.http.ServerOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The update graph service: {@code GET <prefix>/graph} and {@code <prefix>/v1/graph} with {@code
 * channel} (required), {@code arch} (default amd64), {@code version} and {@code id}; {@code
 * /openapi}; {@code /healthz} and {@code /readyz}; {@code /metrics} on a port of its own, apart
 * from the public one (what the service counts is not every client's to read). Inputs are polled; a
 * change is rebuilt off the request path, every channel's answers prepared, and swapped in whole;
 * an invalid change keeps the last good graph and is reported in the log, {@code /readyz} and
 * metrics. A graph is answered gzipped to a client that takes gzip, 304 to one that holds its ETag,
 * always with {@code Cache-Control} and {@code Vary: Accept-Encoding}; on the event loops, as
 * nothing is left to compute.
 */
public final class GraphService implements AutoCloseable {

    public static final String DEFAULT_PREFIX = "/api/upgrades_info";
    static final List<String> MEDIA_TYPES =
            List.of("application/json", "application/vnd.redhat.cincinnati.v1+json");
    static final Pattern CHANNEL = Pattern.compile("^[0-9a-z\\-.]+$");
    static final Pattern ARCH = Pattern.compile("^[0-9a-z]+$");

    /** What {@link PrometheusMeterRegistry#scrape()} writes. */
    private static final String METRICS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** {@code /metrics} asked of the graph's port. */
    private static final Reply METRICS_ELSEWHERE =
            Reply.text(
                    404,
                    "not found: /metrics is not served on the graph's port, but on a port of its"
                            + " own (--metrics-port)\n");

    /** Scrapers hold one connection each: a few. */
    private static final int METRICS_CONNECTIONS = 64;

    /**
     * How the service serves.
     *
     * @param server where it listens, its event loops and limits
     * @param prefix the graph's path prefix
     * @param poll how often inputs are checked
     * @param cacheMaxAge the {@code max-age} of the graph's {@code Cache-Control}
     * @param metrics where {@code /metrics} is served, plain HTTP; null: nowhere
     */
    public record Options(
            ServerOptions server,
            String prefix,
            Duration poll,
            Duration cacheMaxAge,
            InetSocketAddress metrics) {
        /**
         * Default prefix, a 30 s poll, answers cacheable as long, default limits, no metrics
         * served.
         */
        public static Options of(InetSocketAddress address) {
            return new Options(
                    ServerOptions.of("graph-http", address),
                    DEFAULT_PREFIX,
                    Duration.ofSeconds(30),
                    Duration.ofSeconds(30),
                    null);
        }

        public Options withPoll(Duration d) {
            return new Options(server, prefix, d, cacheMaxAge, metrics);
        }

        public Options withPrefix(String p) {
            return new Options(server, p, poll, cacheMaxAge, metrics);
        }

        public Options withCacheMaxAge(Duration d) {
            return new Options(server, prefix, poll, d, metrics);
        }

        public Options withLimits(Limits limits) {
            return new Options(server.withLimits(limits), prefix, poll, cacheMaxAge, metrics);
        }

        public Options withEventLoops(int n) {
            return new Options(server.withEventLoops(n), prefix, poll, cacheMaxAge, metrics);
        }

        /** {@code /metrics} served at {@code address}, apart from the graph's port. */
        public Options withMetrics(InetSocketAddress address) {
            return new Options(server, prefix, poll, cacheMaxAge, address);
        }

        String cacheControl() {
            return "public, max-age=" + cacheMaxAge.toSeconds();
        }
    }

    private final GraphSource source;
    private final Options options;
    private final Clock clock;
    private final Consumer<String> log;
    private final Reply openApi;
    private final String graphPath;
    private final String v1GraphPath;
    private HttpServer server;
    private HttpServer metricsServer;
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

    /** Graph requests by status, each counter registered at its first use. */
    private final AtomicReferenceArray<Counter> requests = new AtomicReferenceArray<>(600);

    private GraphService(GraphSource source, Options options, Clock clock, Consumer<String> log) {
        this.source = source;
        this.options = options;
        this.clock = clock;
        this.log = log;
        this.graphPath = options.prefix() + "/graph";
        this.v1GraphPath = options.prefix() + "/v1/graph";
        this.openApi =
                Reply.of(200, "application/json", Body.of(OpenApi.document(options.prefix())));
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
            GraphSource source, Options options, Clock clock, Consumer<String> log)
            throws IOException, GraphException {
        if (!Files.isDirectory(source.graphData())) {
            throw new GraphException(
                    "invalid_graph_data",
                    "graph data directory " + source.graphData() + " does not exist");
        }
        GraphService s = new GraphService(source, options, clock, log);
        s.fingerprint = s.source.fingerprint();
        s.current.set(new GraphState(s.source.build(), clock.instant(), options.cacheControl()));
        s.server = HttpServer.start(options.server(), s::answer);
        Gauge.builder("upshift.graph.connections", s.server, HttpServer::openConnections)
                .description("Connections open to the graph's port.")
                .register(s.metrics);
        FunctionCounter.builder(
                        "upshift.graph.connections.refused",
                        s.server,
                        HttpServer::refusedConnections)
                .description(
                        "Connections to the graph's port answered 503 and closed: the server held"
                                + " its --max-connections.")
                .register(s.metrics);
        if (options.metrics() != null) {
            try {
                s.metricsServer =
                        HttpServer.start(
                                ServerOptions.of("graph-metrics", options.metrics())
                                        .withEventLoops(1)
                                        .withLimits(
                                                Limits.DEFAULT.withMaxConnections(
                                                        METRICS_CONNECTIONS)),
                                s::answerMetrics);
            } catch (IOException e) {
                s.close();
                throw e;
            }
        }
        long poll = options.poll().toMillis();
        // a timer: reloadIfChanged catches and counts its failures
        var unused =
                s.poller.scheduleWithFixedDelay(
                        s::reloadIfChanged, poll, poll, TimeUnit.MILLISECONDS);
        InetSocketAddress address = options.server().address();
        log.accept(
                "serving "
                        + s.current.get().nodes()
                        + " releases on http://"
                        + address.getHostString()
                        + ":"
                        + s.port()
                        + options.prefix()
                        + "/graph");
        if (s.metricsServer != null) {
            log.accept(
                    "serving /metrics on http://"
                            + options.metrics().getHostString()
                            + ":"
                            + s.metricsPort()
                            + "/metrics");
        }
        return s;
    }

    public int port() {
        return server.port();
    }

    /** The port {@code /metrics} is served on; -1 when it is not. */
    public int metricsPort() {
        return metricsServer == null ? -1 : metricsServer.port();
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
            GraphState fresh =
                    new GraphState(source.build(), clock.instant(), options.cacheControl());
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

    private Reply answer(Request x) {
        String path = x.path();
        String prefix = options.prefix();
        if (path.equals(graphPath) || path.equals(v1GraphPath)) {
            Reply r = graph(x);
            count(r.status());
            return r;
        }
        if (path.equals("/openapi") || path.equals(prefix + "/openapi")) return openApi;
        if (path.equals("/healthz")) return Reply.of(200, "text/plain", Body.of("ok\n"));
        if (path.equals("/readyz")) return ready();
        if (path.equals("/metrics")) return METRICS_ELSEWHERE;
        return Reply.text(
                404,
                "not found: "
                        + prefix
                        + "/graph, "
                        + prefix
                        + "/v1/graph, /openapi, /healthz and /readyz are served\n");
    }

    /** The metrics port: {@code GET /metrics} alone. */
    private Reply answerMetrics(Request x) {
        if (!x.path().equals("/metrics"))
            return Reply.text(404, "not found: only /metrics is served on this port\n");
        if (!"GET".equals(x.method()) && !x.isHead())
            return Reply.text(405, "only GET is supported\n").with("Allow", "GET, HEAD");
        return Reply.of(200, METRICS_TYPE, Body.of(metrics.scrape()));
    }

    private Reply graph(Request x) {
        if (!"GET".equals(x.method()) && !x.isHead())
            return error(405, "invalid_method", "only GET is supported").with("Allow", "GET, HEAD");
        String accept = x.header("Accept");
        if (!acceptable(accept)) {
            return error(
                    406,
                    "invalid_content_type",
                    "invalid Content-Type requested: " + accept + "; use one of " + MEDIA_TYPES);
        }
        String channel, arch;
        try {
            channel = parameter(x.rawQuery(), "channel");
            arch = parameter(x.rawQuery(), "arch");
        } catch (IllegalArgumentException e) {
            return error(400, "invalid_params", "the query is not URL-encoded: " + e.getMessage());
        }
        if (channel == null || channel.isEmpty())
            return error(400, "missing_params", "mandatory client parameters missing: channel");
        if (arch == null) arch = "amd64";
        GraphState state = current.get();
        // a channel and architecture the graph has were valid names: only others are checked
        PreparedGraph graph = state.prepared(channel, arch);
        if (graph == null) {
            if (!CHANNEL.matcher(channel).matches()) {
                return error(
                        400,
                        "invalid_params",
                        "channel '"
                                + channel
                                + "' does not match regex '"
                                + CHANNEL.pattern()
                                + "'");
            }
            if (!ARCH.matcher(arch).matches()) {
                return error(
                        400,
                        "invalid_params",
                        "arch '" + arch + "' does not match regex '" + ARCH.pattern() + "'");
            }
            graph = state.empty();
        }
        return graph.answer(
                ContentCodings.acceptsGzip(x.header("Accept-Encoding")), x.header("If-None-Match"));
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

    /** The first value of a query parameter, decoded; null when absent. */
    static String parameter(String rawQuery, String name) {
        if (rawQuery == null) return null;
        int start = 0, n = rawQuery.length();
        while (start <= n) {
            int end = rawQuery.indexOf('&', start);
            if (end < 0) end = n;
            int eq = rawQuery.indexOf('=', start);
            if (eq < 0 || eq > end) eq = end;
            // most keys need no decoding: compared in place
            boolean plainKey = eq - start == name.length() && rawQuery.startsWith(name, start);
            if (plainKey
                    || (hasEscapes(rawQuery, start, eq)
                            && decode(rawQuery.substring(start, eq)).equals(name)))
                return eq == end ? "" : decode(rawQuery.substring(eq + 1, end));
            start = end + 1;
        }
        return null;
    }

    private static boolean hasEscapes(String s, int from, int to) {
        for (int i = from; i < to; i++) if (s.charAt(i) == '%' || s.charAt(i) == '+') return true;
        return false;
    }

    private static String decode(String s) {
        return s.indexOf('%') < 0 && s.indexOf('+') < 0
                ? s
                : URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private Reply ready() {
        GraphState s = current.get();
        String err = lastError.get();
        String body =
                "{\"ready\":true,\"releases\":"
                        + s.nodes()
                        + ",\"loadedAt\":\""
                        + s.loadedAt()
                        + "\""
                        + (err == null ? "" : ",\"lastReloadError\":" + TextNode.valueOf(err))
                        + "}\n";
        return Reply.of(200, "application/json", Body.of(body));
    }

    private static Reply error(int status, String kind, String value) {
        String body = "{\"kind\":\"" + kind + "\",\"value\":" + TextNode.valueOf(value) + "}";
        return Reply.of(status, "application/json", Body.of(body));
    }

    private void count(int status) {
        Counter c = requests.get(status);
        if (c == null) {
            c =
                    Counter.builder("upshift.graph.requests")
                            .description("Graph requests by HTTP status.")
                            .tag("code", String.valueOf(status))
                            .register(metrics);
            requests.set(status, c);
        }
        c.increment();
    }

    @Override
    public void close() {
        poller.shutdownNow();
        if (server != null) server.close();
        if (metricsServer != null) metricsServer.close();
    }
}
