package io.upshift.graph.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.testkit.RawHttp;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphServiceTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    GraphService service;
    final List<String> log = new ArrayList<>();
    final HttpClient http = HttpClient.newHttpClient();

    void release(String version, String... previous) throws Exception {
        Files.writeString(
                dir.resolve("releases").resolve(version + ".json"),
                "{\"version\":\""
                        + version
                        + "\",\"previous\":"
                        + JSON.writeValueAsString(List.of(previous))
                        + ",\"metadata\":{\"url\":\"https://example.com/"
                        + version
                        + "\"},\"architecture\":\"amd64\",\"payload\":\"registry.example/release@sha256:"
                        + "a".repeat(63)
                        + version.charAt(version.length() - 1)
                        + "\"}");
    }

    @BeforeEach
    void start() throws Exception {
        Files.createDirectories(dir.resolve("releases"));
        Files.createDirectories(dir.resolve("data/channels"));
        Files.writeString(dir.resolve("data/version"), "1.1.0");
        Files.writeString(
                dir.resolve("data/channels/stable-1.0.yaml"),
                "name: stable-1.0\nversions: [1.0.0, 1.0.1, 1.0.2]\n");
        release("1.0.0");
        release("1.0.1", "1.0.0");
        service =
                GraphService.start(
                        GraphSource.files(dir.resolve("releases"), dir.resolve("data")),
                        GraphService.Options.of(new InetSocketAddress("127.0.0.1", 0))
                                .withPoll(Duration.ofHours(1))
                                .withMetrics(new InetSocketAddress("127.0.0.1", 0)),
                        Clock.systemUTC(),
                        log::add);
    }

    @AfterEach
    void stop() {
        service.close();
    }

    HttpResponse<String> get(String path, String accept) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + path));
        if (accept != null) b.header("Accept", accept);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesTheChannelGraph() throws Exception {
        for (String path :
                List.of(
                        "/api/upgrades_info/v1/graph?channel=stable-1.0&id=abc&version=1.0.0&unknown=x",
                        "/api/upgrades_info/graph?channel=stable-1.0&arch=amd64")) {
            HttpResponse<String> r = get(path, "application/vnd.redhat.cincinnati.v1+json");
            assertThat(r.statusCode()).isEqualTo(200);
            JsonNode g = JSON.readTree(r.body());
            assertThat(g.path("nodes"))
                    .extracting(n -> n.path("version").asText())
                    .containsExactly("1.0.0", "1.0.1");
            assertThat(g.path("edges").toString()).isEqualTo("[[0,1]]");
            assertThat(
                            g.path("nodes")
                                    .get(0)
                                    .path("metadata")
                                    .path("io.openshift.upgrades.graph.release.channels")
                                    .asText())
                    .isEqualTo("stable-1.0");
        }
        assertThat(
                        JSON.readTree(get("/api/upgrades_info/graph?channel=fast-1.0", null).body())
                                .path("nodes"))
                .isEmpty();
    }

    @Test
    void badRequestsGetErrorJson() throws Exception {
        HttpResponse<String> missing = get("/api/upgrades_info/graph", null);
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(missing.body())
                .isEqualTo(
                        "{\"kind\":\"missing_params\",\"value\":\"mandatory client parameters"
                                + " missing: channel\"}");
        HttpResponse<String> bad = get("/api/upgrades_info/graph?channel=Stable_1", null);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).path("kind").asText()).isEqualTo("invalid_params");
        HttpResponse<String> html = get("/api/upgrades_info/graph?channel=stable-1.0", "text/html");
        assertThat(html.statusCode()).isEqualTo(406);
        assertThat(JSON.readTree(html.body()).path("kind").asText())
                .isEqualTo("invalid_content_type");
        assertThat(get("/api/upgrades_info/graph?channel=stable-1.0&arch=ARM", null).statusCode())
                .isEqualTo(400);
        assertThat(
                        JSON.readTree(get("/openapi", null).body())
                                .path("paths")
                                .has("/api/upgrades_info/v1/graph"))
                .isTrue();
        assertThat(get("/healthz", null).statusCode()).isEqualTo(200);
    }

    @Test
    void reloadsOnChangeAndKeepsTheLastGoodGraphOnBadInput() throws Exception {
        release("1.0.2", "1.0.1");
        service.reloadIfChanged();
        assertThat(
                        JSON.readTree(
                                        get("/api/upgrades_info/graph?channel=stable-1.0", null)
                                                .body())
                                .path("nodes"))
                .hasSize(3);

        Files.writeString(
                dir.resolve("data/channels/stable-1.0.yaml"),
                "name: stable-1.0\nversions: [1.0.0, [oops\n");
        service.reloadIfChanged();
        HttpResponse<String> still = get("/api/upgrades_info/graph?channel=stable-1.0", null);
        assertThat(still.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(still.body()).path("nodes")).hasSize(3);
        assertThat(JSON.readTree(get("/readyz", null).body()).path("lastReloadError").asText())
                .contains("stable-1.0.yaml: invalid YAML");
        String metrics = metrics();
        assertThat(metrics)
                .contains("upshift_graph_reload_errors_total 1.0\n")
                .contains("upshift_graph_last_reload_failed 1.0\n")
                .contains("upshift_graph_reloads_total 1.0\n")
                .contains("upshift_graph_requests_total{code=\"200\"} 2.0\n")
                .contains("# TYPE upshift_graph_requests_total counter\n")
                .contains("# TYPE upshift_graph_releases gauge\n")
                .contains("upshift_graph_releases 3.0\n");
        assertThat(log)
                .anyMatch(l -> l.startsWith("reload failed, still serving the graph loaded at"));

        Files.writeString(
                dir.resolve("data/channels/stable-1.0.yaml"),
                "name: stable-1.0\nversions: [1.0.0]\n");
        service.reloadIfChanged();
        assertThat(
                        JSON.readTree(
                                        get("/api/upgrades_info/graph?channel=stable-1.0", null)
                                                .body())
                                .path("nodes"))
                .hasSize(1);
        assertThat(JSON.readTree(get("/readyz", null).body()).has("lastReloadError")).isFalse();
    }

    /** What the metrics port answers. */
    String metrics() throws Exception {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                "http://127.0.0.1:"
                                                        + service.metricsPort()
                                                        + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    /**
     * {@code /metrics} is served on a port of its own, not the graph's public one, which answers it
     * 404 saying where; the metrics port serves nothing else.
     */
    @Test
    void metricsAreServedApartFromTheGraphsPort() throws Exception {
        assertThat(service.metricsPort()).isPositive().isNotEqualTo(service.port());
        HttpResponse<String> publicPort = get("/metrics", null);
        assertThat(publicPort.statusCode()).isEqualTo(404);
        assertThat(publicPort.body())
                .isEqualTo(
                        "not found: /metrics is not served on the graph's port, but on a port of"
                                + " its own (--metrics-port)\n");
        assertThat(get(GRAPH, null).statusCode()).isEqualTo(200);
        assertThat(metrics())
                .contains("upshift_graph_requests_total{code=\"200\"} 1.0\n")
                .contains("upshift_graph_connections_refused_total 0.0\n")
                .contains("# TYPE upshift_graph_connections gauge\n");
        HttpResponse<String> graphOnMetricsPort =
                http.send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                "http://127.0.0.1:"
                                                        + service.metricsPort()
                                                        + GRAPH))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(graphOnMetricsPort.statusCode()).isEqualTo(404);
        assertThat(log)
                .contains(
                        "serving /metrics on http://127.0.0.1:"
                                + service.metricsPort()
                                + "/metrics");
    }

    HttpResponse<byte[]> fetch(String path, String... headers) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + path));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static final String GRAPH = "/api/upgrades_info/v1/graph?channel=stable-1.0";

    @Test
    void gzipToWhomTakesItAnd304ToWhomHoldsTheTag() throws Exception {
        HttpResponse<byte[]> plain = fetch(GRAPH);
        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(plain.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(plain.headers().firstValue("Vary")).hasValue("Accept-Encoding");
        assertThat(plain.headers().firstValue("Cache-Control")).hasValue("public, max-age=30");
        String tag = plain.headers().firstValue("ETag").orElseThrow();
        assertThat(tag).matches("\"[0-9a-f]{32}\"");

        HttpResponse<byte[]> zipped = fetch(GRAPH, "Accept-Encoding", "gzip, deflate, br");
        assertThat(zipped.statusCode()).isEqualTo(200);
        assertThat(zipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(zipped.headers().firstValue("Vary")).hasValue("Accept-Encoding");
        String gzipTag = zipped.headers().firstValue("ETag").orElseThrow();
        assertThat(gzipTag).isEqualTo(tag.replaceFirst("\"$", "-gzip\""));
        assertThat(gunzip(zipped.body())).isEqualTo(plain.body());
        assertThat(zipped.body().length).isLessThan(plain.body().length);

        HttpResponse<byte[]> same =
                fetch(GRAPH, "Accept-Encoding", "gzip", "If-None-Match", gzipTag);
        assertThat(same.statusCode()).isEqualTo(304);
        assertThat(same.body()).isEmpty();
        assertThat(same.headers().firstValue("ETag")).hasValue(gzipTag);
        assertThat(same.headers().firstValue("Cache-Control")).hasValue("public, max-age=30");
        // the tag of the other coding names the same graph: 304, with this coding's tag
        HttpResponse<byte[]> other = fetch(GRAPH, "If-None-Match", "\"old\", " + gzipTag);
        assertThat(other.statusCode()).isEqualTo(304);
        assertThat(other.headers().firstValue("ETag")).hasValue(tag);
        assertThat(fetch(GRAPH, "If-None-Match", "W/" + tag).statusCode()).isEqualTo(304);
        assertThat(fetch(GRAPH, "If-None-Match", "\"old\"").statusCode()).isEqualTo(200);
        // another channel is another graph
        assertThat(
                        fetch("/api/upgrades_info/v1/graph?channel=fast-1.0", "If-None-Match", tag)
                                .statusCode())
                .isEqualTo(200);
        // an error is not a graph: a tag does not turn it into a 304
        assertThat(fetch(GRAPH, "Accept", "text/html", "If-None-Match", tag).statusCode())
                .isEqualTo(406);

        HttpResponse<byte[]> head =
                http.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + service.port() + GRAPH))
                                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers().firstValue("Content-Length"))
                .hasValue(String.valueOf(plain.body().length));
        assertThat(head.headers().firstValue("ETag")).hasValue(tag);

        // a new graph, a new tag: the old one gets the whole graph
        release("1.0.2", "1.0.1");
        service.reloadIfChanged();
        HttpResponse<byte[]> changed = fetch(GRAPH, "If-None-Match", tag);
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.headers().firstValue("ETag")).isNotEqualTo(Optional.of(tag));
        assertThat(metrics())
                .contains("upshift_graph_requests_total{code=\"304\"} 3.0\n")
                .contains("upshift_graph_requests_total{code=\"406\"} 1.0\n");
    }

    @Test
    void otherMethodsPathsAndQueries() throws Exception {
        HttpResponse<String> post =
                http.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + service.port() + GRAPH))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
        assertThat(post.body())
                .isEqualTo("{\"kind\":\"invalid_method\",\"value\":\"only GET is supported\"}");
        assertThat(get("/api/upgrades_info/graphs?channel=stable-1.0", null).statusCode())
                .isEqualTo(404);
        try (RawHttp raw = RawHttp.connect(service.port())) {
            // a client library refuses to send it: a raw one does
            RawHttp.Response escape =
                    raw.send(RawHttp.get("/api/upgrades_info/graph?channel=%zz")).read();
            assertThat(escape.status()).isEqualTo(400);
            assertThat(JSON.readTree(escape.body()).path("kind").asText())
                    .isEqualTo("invalid_params");
        }
        // parameters are decoded, the first of a name wins
        assertThat(
                        JSON.readTree(
                                        get(
                                                        "/api/upgrades_info/graph?chann%65l=stable%2D1.0&channel=fast-1.0&arch=amd64",
                                                        null)
                                                .body())
                                .path("nodes"))
                .hasSize(2);
    }

    static byte[] gunzip(byte[] gz) throws Exception {
        try (var in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        }
    }

    @Test
    void replicasGivenTheSameInputsAgree() throws Exception {
        // another replica: its own copy of the inputs, written later, started at another time
        Path copy = dir.resolve("replica");
        try (var files = Files.walk(dir)) {
            for (Path p : files.filter(p -> !p.startsWith(copy)).sorted().toList()) {
                Path to = copy.resolve(dir.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(to);
                else Files.copy(p, to);
            }
        }
        try (GraphService replica =
                GraphService.start(
                        GraphSource.files(copy.resolve("releases"), copy.resolve("data")),
                        GraphService.Options.of(new InetSocketAddress("127.0.0.1", 0))
                                .withPoll(Duration.ofHours(1)),
                        Clock.offset(Clock.systemUTC(), Duration.ofDays(3)),
                        line -> {})) {
            for (String coding : List.of("gzip", "identity")) {
                HttpResponse<byte[]> mine = fetch(GRAPH, "Accept-Encoding", coding);
                HttpResponse<byte[]> theirs =
                        http.send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:"
                                                                + replica.port()
                                                                + GRAPH))
                                        .header("Accept-Encoding", coding)
                                        .build(),
                                HttpResponse.BodyHandlers.ofByteArray());
                assertThat(theirs.headers().firstValue("ETag"))
                        .isEqualTo(mine.headers().firstValue("ETag"));
                assertThat(theirs.body()).isEqualTo(mine.body());
            }
        }
    }

    @Test
    void queryParameters() {
        assertThat(GraphService.parameter(null, "channel")).isNull();
        assertThat(GraphService.parameter("", "channel")).isNull();
        assertThat(GraphService.parameter("channel=a&arch=b", "arch")).isEqualTo("b");
        assertThat(GraphService.parameter("channel=a&channel=b", "channel")).isEqualTo("a");
        assertThat(GraphService.parameter("channels=a&channel=b", "channel")).isEqualTo("b");
        assertThat(GraphService.parameter("x&channel&y=1", "channel")).isEmpty();
        assertThat(GraphService.parameter("chann%65l=a%2Db+c&", "channel")).isEqualTo("a-b c");
        assertThat(GraphService.parameter("&&channel=a=b", "channel")).isEqualTo("a=b");
        assertThat(GraphService.parameter("arch=x", "channel")).isNull();
    }

    @Test
    void acceptHeaders() {
        assertThat(GraphService.acceptable(null)).isTrue();
        assertThat(GraphService.acceptable("application/json")).isTrue();
        assertThat(GraphService.acceptable("text/html, */*;q=0.1")).isTrue();
        assertThat(GraphService.acceptable("text/plain")).isFalse();
    }
}
