package io.upshift.graph.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.upshift.graph.updates.AvailableUpdates;
import io.upshift.graph.updates.Target;
import io.upshift.graph.updates.UpdatesRequest;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("e2e")
class UpdateClientTest {

    static final String ID = "0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11";
    static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");
    static final String GRAPH =
            "{\"version\":1,\"nodes\":["
                    + "{\"version\":\"1.0.0\",\"payload\":\"r@sha256:"
                    + "0".repeat(64)
                    + "\",\"metadata\":{\"io.openshift.upgrades.graph.release.channels\":\"stable-1.0\"}},"
                    + "{\"version\":\"1.0.1\",\"payload\":\"r@sha256:"
                    + "1".repeat(64)
                    + "\",\"metadata\":{\"url\":\"https://example.com/1.0.1\"}}],"
                    + "\"edges\":[[0,1]],\"conditionalEdges\":[]}";

    HttpServer server;
    final AtomicReference<String> body = new AtomicReference<>(GRAPH);
    final AtomicInteger status = new AtomicInteger(200), requests = new AtomicInteger();
    final AtomicReference<String> query = new AtomicReference<>();
    final UpdateClient client = new UpdateClient(Duration.ofSeconds(2), new SplittableRandom(1));

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(
                "/graph",
                x -> {
                    requests.incrementAndGet();
                    query.set(x.getRequestURI().getQuery());
                    byte[] b = body.get().getBytes(StandardCharsets.UTF_8);
                    x.sendResponseHeaders(status.get(), b.length);
                    x.getResponseBody().write(b);
                    x.close();
                });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    UpdatesRequest request(String channel) {
        return new UpdatesRequest(
                "http://127.0.0.1:" + server.getAddress().getPort() + "/graph",
                channel,
                "amd64",
                ID,
                "1.0.0");
    }

    @Test
    void retrievesAndRefreshesEveryTwoToFourMinutes() {
        AvailableUpdates s =
                client.refresh(
                        AvailableUpdates.seed(request("stable-1.0"), null, T0),
                        request("stable-1.0"),
                        T0);
        assertThat(s.status()).isEqualTo("True");
        assertThat(query.get())
                .isEqualTo("arch=amd64&channel=stable-1.0&id=" + ID + "&version=1.0.0");
        assertThat(s.current(request("stable-1.0"), T0).orElseThrow().available())
                .extracting(Target::version)
                .containsExactly("1.0.1");
        assertThat(s.nextRefresh())
                .isBetween(T0.plus(Duration.ofMinutes(2)), T0.plus(Duration.ofMinutes(4)));
        assertThat(client.refresh(s, request("stable-1.0"), T0.plusSeconds(60))).isSameAs(s);
        assertThat(requests.get()).isEqualTo(1);
        client.refresh(s, request("stable-1.0"), T0.plus(Duration.ofMinutes(4)));
        assertThat(requests.get()).isEqualTo(2);
        // a changed channel is asked at once
        client.refresh(s, request("fast-1.0"), T0.plusSeconds(61));
        assertThat(requests.get()).isEqualTo(3);
    }

    @Test
    void failuresKeepTheLastGoodAnswerForADay() {
        AvailableUpdates good =
                client.refresh(
                        AvailableUpdates.seed(request("stable-1.0"), null, T0),
                        request("stable-1.0"),
                        T0);
        body.set("<html>not json</html>");
        AvailableUpdates bad =
                client.refresh(good, request("stable-1.0"), T0.plus(Duration.ofMinutes(5)));
        assertThat(bad.status()).isEqualTo("False");
        assertThat(bad.reason()).isEqualTo("ResponseInvalid");
        assertThat(bad.message())
                .startsWith("Unable to retrieve available updates: the graph is not JSON");
        assertThat(bad.current(request("stable-1.0"), T0.plus(Duration.ofHours(23)))).isPresent();
        assertThat(bad.current(request("stable-1.0"), T0.plus(Duration.ofHours(25)))).isEmpty();

        status.set(503);
        assertThat(
                        client.refresh(bad, request("stable-1.0"), T0.plus(Duration.ofMinutes(10)))
                                .reason())
                .isEqualTo("ResponseFailed");
        status.set(200);
        body.set(GRAPH.replace("1.0.0", "0.9.0"));
        AvailableUpdates missing =
                client.refresh(bad, request("stable-1.0"), T0.plus(Duration.ofMinutes(10)));
        assertThat(missing.reason()).isEqualTo("VersionNotFound");
        assertThat(missing.message())
                .contains(
                        "currently reconciling cluster version 1.0.0 not found in the"
                                + " \"stable-1.0\" channel");
    }

    @Test
    void requestsThatCannotBeMadeSayWhy() {
        AvailableUpdates s = AvailableUpdates.seed(request(""), null, T0);
        assertThat(client.refresh(s, request(""), T0).reason()).isEqualTo("NoChannel");
        UpdatesRequest noId =
                new UpdatesRequest(
                        "http://127.0.0.1:1/graph", "stable-1.0", "amd64", "not-a-uuid", "1.0.0");
        assertThat(client.refresh(s, noId, T0).reason()).isEqualTo("InvalidID");
        UpdatesRequest noUpstream = new UpdatesRequest("", "stable-1.0", "amd64", ID, "1.0.0");
        assertThat(client.refresh(s, noUpstream, T0).reason()).isEqualTo("NoUpstream");
        UpdatesRequest down =
                new UpdatesRequest("http://127.0.0.1:1/graph", "stable-1.0", "amd64", ID, "1.0.0");
        assertThat(client.refresh(s, down, T0).reason()).isEqualTo("RemoteFailed");
        assertThat(requests.get()).isZero();
    }
}
