package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.upshift.graph.updates.UpdatesRequest;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which update graph the controller asks, and for which architecture: spec.upstream, else the
 * controller's default (upstream's api.openshift.com unless configured otherwise; here a local one,
 * as tests never reach the internet), for the architecture the controller runs on, which
 * ReleaseAccepted names too.
 */
@Tag("e2e")
class UpdateServiceTest {

    @TempDir Path dir;

    HttpServer graph;
    final List<String> asked = new CopyOnWriteArrayList<>();

    @BeforeEach
    void serveGraph() throws Exception {
        graph = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        for (String path : List.of("/default", "/configured")) {
            graph.createContext(
                    path,
                    x -> {
                        asked.add(path + "?" + x.getRequestURI().getQuery());
                        byte[] b =
                                ("{\"nodes\":[{\"version\":\"4.1.0\",\"payload\":\"example.com/release@sha256:"
                                                + "0".repeat(64)
                                                + "\",\"metadata\":{}},"
                                                + "{\"version\":\"4.1.1\",\"payload\":\"example.com/release@sha256:"
                                                + "1".repeat(64)
                                                + "\",\"metadata\":{}}],"
                                                + "\"edges\":[[0,1]],\"conditionalEdges\":[]}")
                                        .getBytes(StandardCharsets.UTF_8);
                        x.getResponseHeaders().add("Content-Type", "application/json");
                        x.sendResponseHeaders(200, b.length);
                        x.getResponseBody().write(b);
                        x.close();
                    });
        }
        graph.start();
    }

    @AfterEach
    void stop() {
        graph.stop(0);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + graph.getAddress().getPort() + path;
    }

    @Test
    void withoutSpecUpstreamTheDefaultGraphIsAskedForTheControllersArchitecture() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            h.start(
                    ControllerHarness.options(a, dir.resolve("cache"))
                            .withDefaultUpstream(url("/default"))
                            .withArchitecture("arm64"));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            assertThat(h.condition("ReleaseAccepted").getMessage())
                    .isEqualTo(
                            "Payload loaded version=\"4.1.0\" image=\""
                                    + a
                                    + "\" architecture=\"arm64\"");
            assertThat(h.client.v1().events().inNamespace("default").list().getItems())
                    .filteredOn(e -> "PayloadLoaded".equals(e.getReason()))
                    .extracting(Event::getMessage)
                    .contains(h.condition("ReleaseAccepted").getMessage());
            await("updates retrieved")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.condition("RetrievedUpdates") != null
                                            && "True"
                                                    .equals(
                                                            h.condition("RetrievedUpdates")
                                                                    .getStatus()));
            assertThat(h.clusterVersion().getStatus().getAvailableUpdates())
                    .extracting(Release::getVersion)
                    .containsExactly("4.1.1");
            assertThat(asked)
                    .allMatch(q -> q.startsWith("/default?arch=arm64&channel=stable-4.1&"));

            // spec.upstream, once set, is what is asked
            h.editSpec(spec -> spec.setUpstream(url("/configured")));
            await("the configured graph asked")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> asked.stream().anyMatch(q -> q.startsWith("/configured?")));
        }
    }

    @Test
    void theDefaultIsUpstreamsAndATestControllerHasNone() throws Exception {
        assertThat(ControllerOptions.defaults(null, dir).defaultUpstream())
                .isEqualTo("https://api.openshift.com/api/upgrades_info/v1/graph")
                .isEqualTo(UpdatesRequest.DEFAULT_UPSTREAM);
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("RetrievedUpdates")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.condition("RetrievedUpdates") != null);
            assertThat(h.condition("RetrievedUpdates").getReason()).isEqualTo("NoUpstream");
        }
    }
}
