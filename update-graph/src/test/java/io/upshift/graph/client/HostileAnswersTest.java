package io.upshift.graph.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.upshift.graph.model.Risk;
import io.upshift.graph.risk.RuleMatcher;
import io.upshift.graph.updates.AvailableUpdates;
import io.upshift.graph.updates.UpdatesRequest;
import io.upshift.testkit.HostileServer;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The update graph client and the Prometheus client facing servers that answer too much or too
 * slowly: each fails at its bound, saying which host and which limit, and reads no further.
 */
@Tag("e2e")
class HostileAnswersTest {

    static final String ID = "0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11";
    static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");

    HostileServer server;

    @BeforeEach
    void start() throws Exception {
        server = HostileServer.start();
        server.answer("/huge", new HostileServer.Huge(1L << 30, false));
        server.answer("/slow", new HostileServer.Trickle(Duration.ofMillis(500), false));
        server.answer("/slow-headers", new HostileServer.Trickle(Duration.ofMillis(500), true));
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    /** The graph at {@code path}, asked once with a 2 s timeout, on a thread of its own. */
    AvailableUpdates ask(String path) {
        UpdatesRequest request =
                new UpdatesRequest(server.url(path).toString(), "stable-1.0", "amd64", ID, "1.0.0");
        UpdateClient client = new UpdateClient(Duration.ofSeconds(2), new SplittableRandom(1));
        CompletableFuture<AvailableUpdates> f =
                CompletableFuture.supplyAsync(
                        () ->
                                client.refresh(
                                        AvailableUpdates.seed(request, null, T0), request, T0));
        // far above the bound tested: reaching it means it did not hold
        await().atMost(Duration.ofSeconds(60)).until(f::isDone);
        return f.join();
    }

    @Test
    void aGraphLargerThanItsLimitIsRefusedAtTheLimit() {
        AvailableUpdates s = ask("/huge");
        assertThat(s.status()).isEqualTo("False");
        assertThat(s.reason()).isEqualTo("ResponseFailed");
        assertThat(s.message())
                .isEqualTo(
                        "Unable to retrieve available updates: 127.0.0.1: the answer to GET "
                                + server.url("/huge")
                                + "?arch=amd64&channel=stable-1.0&id="
                                + ID
                                + "&version=1.0.0 is larger than 33554432 bytes (32 MiB), its"
                                + " limit");
        await().atMost(Duration.ofSeconds(20)).until(() -> server.openConnections() == 0);
        assertThat(server.bodyBytesSent()).isLessThan(96L << 20);
    }

    @Test
    void aGraphSentAByteAtATimeEndsAtTheTimeout() {
        AvailableUpdates s = ask("/slow");
        assertThat(s.reason()).isEqualTo("ResponseFailed");
        assertThat(s.message())
                .startsWith("Unable to retrieve available updates: 127.0.0.1: no complete answer")
                .endsWith("within 2s, the limit for one answer");
        AvailableUpdates h = ask("/slow-headers");
        assertThat(h.reason()).isEqualTo("RemoteFailed");
        assertThat(h.message()).endsWith("within 2s, the limit for one answer");
    }

    /** {@code up} asked of the Prometheus at {@code path}; the failure's message. */
    String query(String path) {
        PrometheusMatcher m =
                new PrometheusMatcher(
                        new PromQLTarget(server.url(path), true, "", "", null, null),
                        (ns, name) -> {
                            throw new AssertionError("no Service is looked up with DNS");
                        },
                        "x",
                        Duration.ofSeconds(2));
        CompletableFuture<String> f =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return "matched: " + m.match(new Risk.MatchingRule("PromQL", "up"));
                            } catch (RuleMatcher.RuleException e) {
                                return e.getMessage();
                            }
                        });
        await().atMost(Duration.ofSeconds(60)).until(f::isDone);
        return f.join();
    }

    @Test
    void aPrometheusAnswerLargerThanItsLimitIsRefusedAtTheLimit() {
        assertThat(query("/huge"))
                .isEqualTo(
                        "executing PromQL query: Get \""
                                + server.url("/huge/api/v1/query?query=up")
                                + "\": 127.0.0.1: the answer to GET "
                                + server.url("/huge/api/v1/query?query=up")
                                + " is larger than 1048576 bytes (1 MiB), its limit");
        await().atMost(Duration.ofSeconds(20)).until(() -> server.openConnections() == 0);
        assertThat(server.bodyBytesSent()).isLessThan(64L << 20);
    }

    @Test
    void aPrometheusAnswerSentAByteAtATimeEndsAtTheTimeout() {
        assertThat(query("/slow")).endsWith("within 2s, the limit for one answer");
        assertThat(query("/slow-headers")).endsWith("within 2s, the limit for one answer");
    }
}
