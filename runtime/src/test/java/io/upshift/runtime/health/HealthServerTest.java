package io.upshift.runtime.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The probes' endpoints: alive whatever the replica does; ready as the replica says, with why not.
 */
class HealthServerTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void livenessAlwaysAndReadinessAsTheReplicaSays() throws Exception {
        AtomicReference<String> unready =
                new AtomicReference<>("the leader, starting its controllers");
        try (HealthServer server =
                HealthServer.start(new InetSocketAddress("127.0.0.1", 0), unready::get)) {
            assertThat(get(server, "/healthz")).isEqualTo("200 ok");
            assertThat(get(server, "/readyz"))
                    .isEqualTo("503 not ready: the leader, starting its controllers");
            unready.set(null);
            assertThat(get(server, "/readyz")).isEqualTo("200 ok");
            assertThat(get(server, "/healthz")).isEqualTo("200 ok");
            assertThat(get(server, "/metrics")).startsWith("404 ");
        }
    }

    private String get(HealthServer server, String path) throws Exception {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + server.port() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body().strip();
    }
}
