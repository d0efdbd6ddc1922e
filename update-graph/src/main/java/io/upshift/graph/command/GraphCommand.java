package io.upshift.graph.command;

import io.upshift.graph.server.GraphService;
import io.upshift.graph.server.GraphSource;
import io.upshift.graph.server.ReleaseScraper;
import io.upshift.releases.image.ImageRef;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
                        + " /readyz, /metrics.",
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

        @picocli.CommandLine.Mixin io.upshift.releases.command.RegistryOptions registry;

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
                names = "--threads",
                description = "Request threads (default: twice the processors).")
        int threads = 2 * Runtime.getRuntime().availableProcessors();

        @Override
        public Integer call() throws Exception {
            var err = spec.commandLine().getErr();
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
            try (GraphService service =
                    GraphService.start(
                            source,
                            new InetSocketAddress(address, port),
                            prefix,
                            poll,
                            threads,
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
    }
}
