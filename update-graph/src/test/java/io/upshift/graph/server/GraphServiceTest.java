package io.upshift.graph.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
                                .withPoll(Duration.ofHours(1)),
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
        String metrics = get("/metrics", null).body();
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

    @Test
    void acceptHeaders() {
        assertThat(GraphService.acceptable(null)).isTrue();
        assertThat(GraphService.acceptable("application/json")).isTrue();
        assertThat(GraphService.acceptable("text/html, */*;q=0.1")).isTrue();
        assertThat(GraphService.acceptable("text/plain")).isFalse();
    }
}
