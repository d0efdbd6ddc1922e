package io.upshift.graph.command;

import io.upshift.graph.server.GraphService;
import io.upshift.graph.server.GraphSource;
import io.upshift.graph.server.ReleaseScraper;
import io.upshift.releases.command.RegistryOptions;
import io.upshift.releases.image.ImageRef;
import io.upshift.runtime.http.Limits;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code upshift graph serve}: the update graph service. */
@Command(
        name = "graph",
        mixinStandardHelpOptions = true,
        description = "The update graph service.",
        subcommands = {GraphCommand.Serve.class})
public final class GraphCommand {

    @Command(
            name = "serve",
            mixinStandardHelpOptions = true,
            description = {
                "Serve the update graph of releases and graph data, Cincinnati-compatible:",
                "GET <prefix>/graph and <prefix>/v1/graph?channel=C[&arch=A], /openapi, /healthz,"
                        + " /readyz; /metrics on --metrics-port.",
                "Each channel's answer is made when the graph is built: gzip to clients that take"
                        + " it, 304 to clients holding its ETag.",
                "Inputs are polled; an invalid change keeps the last good graph and is reported."
            })
    static final class Serve implements Callable<Integer> {

        @Spec CommandSpec spec;

        @picocli.CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
        Releases releases;

        static final class Releases {
            @Option(
                    names = "--releases",
                    required = true,
                    paramLabel = "DIR",
                    description =
                            "One JSON file per release: version, previous, next, metadata,"
                                    + " architecture, payload (by digest).")
            Path dir;

            @Option(
                    names = "--releases-from",
                    required = true,
                    paramLabel = "REF",
                    description =
                            "A registry repository (docker://HOST[:PORT]/REPO): every tag's release"
                                    + " image, read by digest.")
            String repository;
        }

        @picocli.CommandLine.Mixin RegistryOptions registry;

        @Option(
                names = "--graph-data",
                required = true,
                paramLabel = "DIR",
                description =
                        "Graph data in the cincinnati-graph-data layout: version, channels/,"
                                + " blocked-edges/, raw/metadata.json.")
        Path graphData;

        @Option(
                names = "--address",
                defaultValue = "127.0.0.1",
                description = "Address to listen on (default: ${DEFAULT-VALUE}).")
        String address;

        @Option(
                names = "--port",
                defaultValue = "8080",
                description = "Port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
        int port;

        @Option(
                names = "--path-prefix",
                defaultValue = GraphService.DEFAULT_PREFIX,
                description = "Path prefix (default: ${DEFAULT-VALUE}).")
        String prefix;

        @Option(
                names = "--poll",
                defaultValue = "PT30S",
                description =
                        "How often inputs are checked for changes (default: ${DEFAULT-VALUE}).")
        Duration poll;

        @Option(
                names = "--cache-max-age",
                paramLabel = "DURATION",
                description =
                        "How long a graph may be kept by clients and caches: the max-age of"
                                + " Cache-Control (ISO-8601; default: the --poll interval).")
        Duration cacheMaxAge;

        @Option(
                names = "--threads",
                description =
                        "Event loops: threads that read requests and write answers (default:"
                                + " the processors).")
        int threads = Runtime.getRuntime().availableProcessors();

        @Option(
                names = "--max-request-rate",
                paramLabel = "N",
                description =
                        "Requests a second one connection may make; more are answered 429 (default:"
                                + " ${DEFAULT-VALUE}; 0: no limit).")
        int maxRequestRate = Limits.DEFAULT.requestsPerSecond();

        @Option(
                names = "--idle-timeout",
                paramLabel = "DURATION",
                description =
                        "A connection that sends no whole request head for this long, from its"
                                + " opening or its last answer, is closed (ISO-8601, default:"
                                + " ${DEFAULT-VALUE}).")
        Duration idleTimeout = Limits.DEFAULT.idleTimeout();

        @Option(
                names = "--max-connections",
                paramLabel = "N",
                description =
                        "Connections the graph's port holds at once; more are answered 503 and"
                                + " closed, counted in upshift_graph_connections_refused_total"
                                + " (default: ${DEFAULT-VALUE}; 0: no cap).")
        int maxConnections = Limits.DEFAULT.maxConnections();

        @Option(
                names = "--metrics-port",
                paramLabel = "PORT",
                description =
                        "Serve /metrics on this port, plain HTTP, apart from the graph's; 0 picks"
                                + " a free one (default: not served; the graph's port answers"
                                + " /metrics 404).")
        int metricsPort = -1;

        @Option(
                names = "--metrics-address",
                paramLabel = "ADDRESS",
                description = "Address the --metrics-port listens on (default: --address's).")
        String metricsAddress;

        @Override
        public Integer call() throws Exception {
            var err = spec.commandLine().getErr();
            if (threads < 1) throw usage("--threads must be at least 1");
            if (maxRequestRate < 0) throw usage("--max-request-rate cannot be negative");
            if (idleTimeout.isNegative() || idleTimeout.isZero())
                throw usage("--idle-timeout must be positive");
            if (poll.isNegative() || poll.isZero()) throw usage("--poll must be positive");
            if (maxConnections < 0) throw usage("--max-connections cannot be negative");
            if (metricsPort < -1 || metricsPort > 65535)
                throw usage("--metrics-port must be a port (0 picks a free one)");
            if (metricsPort > 0
                    && metricsPort == port
                    && (metricsAddress == null || metricsAddress.equals(address)))
                throw usage("--metrics-port must differ from --port: /metrics is served apart");
            if (metricsAddress != null && metricsPort < 0)
                throw usage("--metrics-address goes with --metrics-port");
            if (cacheMaxAge != null && cacheMaxAge.isNegative())
                throw usage("--cache-max-age cannot be negative");
            CountDownLatch stopped = new CountDownLatch(1);
            GraphSource source =
                    releases.dir != null
                            ? GraphSource.files(releases.dir, graphData)
                            : GraphSource.registry(
                                    ImageRef.parse(releases.repository),
                                    new ReleaseScraper(
                                            registry.credentials(),
                                            registry.insecure,
                                            w -> err.println("upshift graph: warning: " + w)),
                                    graphData);
            GraphService.Options options =
                    GraphService.Options.of(new InetSocketAddress(address, port))
                            .withPrefix(prefix)
                            .withPoll(poll)
                            .withCacheMaxAge(cacheMaxAge == null ? poll : cacheMaxAge)
                            .withEventLoops(threads)
                            .withLimits(
                                    Limits.DEFAULT
                                            .withRequestsPerSecond(maxRequestRate)
                                            .withIdleTimeout(idleTimeout)
                                            .withMaxConnections(maxConnections));
            if (metricsPort >= 0) {
                options =
                        options.withMetrics(
                                new InetSocketAddress(
                                        metricsAddress != null ? metricsAddress : address,
                                        metricsPort));
            }
            try (GraphService service =
                    GraphService.start(
                            source,
                            options,
                            Clock.systemUTC(),
                            line -> {
                                err.println("upshift graph: " + line);
                                err.flush();
                            })) {
                Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown));
                stopped.await();
            }
            return 0;
        }

        private ParameterException usage(String message) {
            return new ParameterException(spec.commandLine(), message);
        }
    }
}
