package io.upshift.status.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.upshift.testkit.HostileServer;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Alerts from a server that answers too much or too slowly end at their bound, named. */
@Tag("e2e")
class HostileAlertsTest {

    HostileServer server;

    @BeforeEach
    void start() throws IOException {
        server = HostileServer.start();
        server.answer("/huge", new HostileServer.Huge(1L << 30, false));
        server.answer("/slow", new HostileServer.Trickle(Duration.ofMillis(500), false));
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    /** The failure of reading alerts at {@code path}, once it failed. */
    String failure(String path) {
        AlertsClient client = new AlertsClient(server.url(path).toString(), Duration.ofSeconds(2));
        CompletableFuture<String> f =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return "read " + client.fetch();
                            } catch (IOException e) {
                                return e.getMessage();
                            }
                        });
        // far above the bound tested: reaching it means it did not hold
        await().atMost(Duration.ofSeconds(60)).until(f::isDone);
        return f.join();
    }

    @Test
    void alertsLargerThanTheLimitAreRefusedAtIt() {
        assertThat(failure("/huge/api/v1/alerts"))
                .isEqualTo(
                        "127.0.0.1: the answer to GET "
                                + server.url("/huge/api/v1/alerts")
                                + " is larger than 16777216 bytes (16 MiB), its limit");
        await().atMost(Duration.ofSeconds(20)).until(() -> server.openConnections() == 0);
        assertThat(server.bodyBytesSent()).isLessThan(64L << 20);
    }

    @Test
    void alertsSentAByteAtATimeEndAtTheTimeout() {
        assertThat(failure("/slow/api/v1/alerts"))
                .isEqualTo(
                        "127.0.0.1: no complete answer to GET "
                                + server.url("/slow/api/v1/alerts")
                                + " within 2s, the limit for one answer");
    }
}
