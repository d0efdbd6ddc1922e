package io.upshift.bench;

import io.upshift.graph.server.GraphService;
import io.upshift.graph.server.GraphSource;
import io.upshift.releases.image.FileTrees;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The graph service under load, as a fleet polls it: serves the stable-4.7 graph of the shared
 * fixtures (its releases written as {@link GraphReleases} writes them, the shared graph data) on
 * 127.0.0.1 and drives it with wrk on the same machine, three ways after a warm-up: clients taking
 * gzip, clients holding the current ETag (304), and plain clients. Prints one line: {@code graph
 * stable-4.7: N req/s gzip, p99 X ms; M req/s 304; K req/s identity}. Usage: {@code GraphThroughput
 * [SECONDS] [CONNECTIONS] [WRK_THREADS]} (15 s, 32 connections, 2 threads); the fixtures are read
 * from {@code -Dupshift.fixtures} (default {@code ../shared/fixtures}).
 */
public final class GraphThroughput {

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        int connections = args.length > 1 ? Integer.parseInt(args[1]) : 32;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        Path fixtures = Path.of(System.getProperty("upshift.fixtures", "../shared/fixtures"));
        Path graphs = fixtures.resolve("cincinnati-graphs");
        Path data = fixtures.resolve("graph-data-134475077");
        Path graph = stable47(graphs);
        if (graph == null || !Files.isDirectory(data)) {
            System.err.println(
                    "graph-throughput: the shared fixtures are absent (no stable-4.7 graph in "
                            + graphs
                            + " or no "
                            + data
                            + ")");
            System.exit(2);
        }
        if (!Wrk.installed()) {
            System.err.println(
                    "graph-throughput: wrk is not installed (Debian: apt-get install wrk)");
            System.exit(2);
        }
        Path work = Files.createTempDirectory("upshift-graph-throughput-");
        try {
            GraphReleases.write(graph, "amd64", work.resolve("releases"));
            try (GraphService service =
                    GraphService.start(
                            GraphSource.files(work.resolve("releases"), data),
                            GraphService.Options.of(new InetSocketAddress("127.0.0.1", 0))
                                    .withPoll(Duration.ofHours(1)),
                            Clock.systemUTC(),
                            line -> {})) {
                String url =
                        "http://127.0.0.1:"
                                + service.port()
                                + GraphService.DEFAULT_PREFIX
                                + "/v1/graph?channel=stable-4.7";
                String etag = gzipEtag(url);
                String gzip = "Accept-Encoding: gzip";
                Wrk.run(url, threads, connections, 5, gzip); // warm-up: the JIT compiles
                Wrk.run(url, threads, connections, 5); // and the plain path too
                Wrk zipped = Wrk.run(url, threads, connections, seconds, gzip);
                Wrk notModified =
                        Wrk.run(url, threads, connections, seconds, gzip, "If-None-Match: " + etag);
                Wrk plain = Wrk.run(url, threads, connections, seconds);
                for (Wrk w : new Wrk[] {zipped, notModified, plain})
                    if (!w.errors().isEmpty())
                        System.err.println("graph-throughput: wrk counted " + w.errors());
                System.out.println(
                        String.format(
                                Locale.ROOT,
                                "graph stable-4.7: %,.0f req/s gzip, p99 %.2f ms; %,.0f req/s"
                                        + " 304; %,.0f req/s identity",
                                zipped.requestsPerSecond(),
                                zipped.p99Millis(),
                                notModified.requestsPerSecond(),
                                plain.requestsPerSecond()));
            }
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    private static Path stable47(Path graphs) throws Exception {
        if (!Files.isDirectory(graphs)) return null;
        try (Stream<Path> files = Files.list(graphs)) {
            return files.filter(p -> p.toString().endsWith("_stable-4.7_amd64_v1.json"))
                    .findFirst()
                    .orElse(null);
        }
    }

    /** The ETag of the gzipped graph, checking that it is served gzipped with one. */
    private static String gzipEtag(String url) throws Exception {
        HttpResponse<byte[]> r =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(url))
                                        .header("Accept-Encoding", "gzip")
                                        .build(),
                                HttpResponse.BodyHandlers.ofByteArray());
        String etag = r.headers().firstValue("ETag").orElse(null);
        if (r.statusCode() != 200
                || !"gzip".equals(r.headers().firstValue("Content-Encoding").orElse(null))
                || etag == null)
            throw new IllegalStateException(
                    "the service did not answer gzip with an ETag: "
                            + r.statusCode()
                            + " "
                            + r.headers());
        return etag;
    }
}
