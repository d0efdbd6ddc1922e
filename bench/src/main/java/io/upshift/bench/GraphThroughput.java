package io.upshift.bench;

import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.UpshiftImage;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The graph service under load, as a fleet polls it: runs {@code upshift graph serve} as Upshift's
 * image runs it, on the stable-4.7 graph of the shared fixtures (its releases written as {@link
 * GraphReleases} writes them, the shared graph data), on 127.0.0.1 with as many event loops as
 * processors, and drives it with wrk on the same machine, three ways after a warm-up of each (40
 * s): clients taking gzip, clients holding the current ETag (304), and plain clients. Prints one
 * line: {@code graph stable-4.7: N req/s gzip, p99 X ms; M req/s 304; K req/s identity}. Usage:
 * {@code GraphThroughput [SECONDS] [CONNECTIONS] [WRK_THREADS]} (15 s, 32 connections, 2 threads);
 * the fixtures are read from {@code -Dupshift.fixtures} (default {@code ../shared/fixtures}).
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
            Process server = serve(work.resolve("releases"), data);
            try {
                String url =
                        "http://127.0.0.1:"
                                + port(server)
                                + "/api/upgrades_info/v1/graph?channel=stable-4.7";
                String etag = gzipEtag(url);
                String gzip = "Accept-Encoding: gzip";
                String notModifiedHeader = "If-None-Match: " + etag;
                // a warm-up of each way, 40 s in all: the JIT has compiled them, and the heap has
                // grown to where the young collections of a running service take a few ms (the
                // first ones, in a new heap, take 30-40 ms here)
                Wrk.run(url, threads, connections, 20, gzip);
                Wrk.run(url, threads, connections, 10, gzip, notModifiedHeader);
                Wrk.run(url, threads, connections, 10);
                Wrk zipped = Wrk.run(url, threads, connections, seconds, gzip);
                Wrk notModified =
                        Wrk.run(url, threads, connections, seconds, gzip, notModifiedHeader);
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
            } finally {
                server.destroy();
                if (!server.waitFor(20, TimeUnit.SECONDS)) server.destroyForcibly();
            }
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    /**
     * {@code upshift graph serve} in a JVM of its own, as Upshift's image runs it (its entry
     * point's JVM options), with this JVM's class path; on a free port.
     */
    private static Process serve(Path releases, Path data) throws Exception {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java")
                                        .toString()));
        command.addAll(UpshiftImage.JVM_OPTIONS);
        command.addAll(
                List.of(
                        "-cp",
                        System.getProperty("java.class.path"),
                        "io.upshift.cli.Upshift",
                        "graph",
                        "serve",
                        "--releases",
                        releases.toString(),
                        "--graph-data",
                        data.toString(),
                        "--port",
                        "0",
                        "--poll",
                        "PT1H"));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** The port the service says it serves on, once it has built its graph. */
    private static int port(Process server) throws Exception {
        Pattern serving = Pattern.compile("serving .* on http://127\\.0\\.0\\.1:(\\d+)/");
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            Matcher m = serving.matcher(line);
            if (m.find()) {
                // the rest of its output is drained, so that it never waits on a full pipe
                Thread drain =
                        new Thread(
                                () -> {
                                    try {
                                        out.transferTo(Writer.nullWriter());
                                    } catch (Exception e) {
                                        // the server is gone
                                    }
                                });
                drain.setDaemon(true);
                drain.start();
                return Integer.parseInt(m.group(1));
            }
            seen.append(line).append('\n');
        }
        throw new IllegalStateException("the graph service ended: " + seen);
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
