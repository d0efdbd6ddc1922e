package io.upshift.graph.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.graph.server.GraphService;
import io.upshift.graph.server.GraphSource;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shared served graphs through the graph service over HTTP: a plain request gets the bytes the
 * builder's graph serializes to (what the service sent before answers were prepared), the same
 * graph as the reference; a gzip request gets those bytes compressed; the ETag gets a 304.
 */
class ServedGraphConformanceTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.upshift.graph.model.CincinnatiConformanceTest#graphs")
    void servesTheSameBytes(String name, Path file) throws Exception {
        Assumptions.assumeTrue(file != null, "shared fixtures not present");
        String[] parts = name.replace("_v1.json", "").split("_");
        String channel = parts[1], arch = parts[2];
        Graph expected = GraphJson.read(Files.readAllBytes(file), 64 << 20);
        List<ReleaseEntry> releases = CincinnatiConformanceTest.releases(expected, arch);
        Path data = CincinnatiConformanceTest.fixtures().resolve("graph-data-134475077");
        byte[] built =
                GraphJson.write(
                        GraphBuilder.serve(
                                GraphBuilder.build(releases, GraphData.load(data)), channel, arch));

        GraphSource source =
                new GraphSource() {
                    @Override
                    public String fingerprint() {
                        return "fixed";
                    }

                    @Override
                    public List<ReleaseEntry> releases() {
                        return releases;
                    }

                    @Override
                    public Path graphData() {
                        return data;
                    }
                };
        try (GraphService service =
                GraphService.start(
                        source,
                        GraphService.Options.of(new InetSocketAddress("127.0.0.1", 0))
                                .withPoll(Duration.ofHours(1)),
                        Clock.systemUTC(),
                        line -> {})) {
            HttpClient http = HttpClient.newHttpClient();
            String url =
                    "http://127.0.0.1:"
                            + service.port()
                            + "/api/upgrades_info/v1/graph?channel="
                            + channel
                            + "&arch="
                            + arch;
            HttpResponse<byte[]> plain = get(http, url);
            assertThat(plain.statusCode()).isEqualTo(200);
            assertThat(plain.body()).isEqualTo(built);
            Graph served = GraphJson.read(plain.body(), 64 << 20);
            assertThat(CincinnatiConformanceTest.nodes(served))
                    .isEqualTo(CincinnatiConformanceTest.nodes(expected));
            assertThat(CincinnatiConformanceTest.edges(served))
                    .isEqualTo(CincinnatiConformanceTest.edges(expected));
            assertThat(CincinnatiConformanceTest.conditional(served))
                    .isEqualTo(CincinnatiConformanceTest.conditional(expected));

            HttpResponse<byte[]> zipped = get(http, url, "Accept-Encoding", "gzip");
            assertThat(zipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
            try (GZIPInputStream in =
                    new GZIPInputStream(new ByteArrayInputStream(zipped.body()))) {
                assertThat(in.readAllBytes()).isEqualTo(built);
            }
            String tag = zipped.headers().firstValue("ETag").orElseThrow();
            assertThat(get(http, url, "Accept-Encoding", "gzip", "If-None-Match", tag).statusCode())
                    .isEqualTo(304);
        }
    }

    private static HttpResponse<byte[]> get(HttpClient http, String url, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
