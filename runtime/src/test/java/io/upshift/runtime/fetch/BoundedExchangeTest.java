package io.upshift.runtime.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.upshift.testkit.HostileServer;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Answers that are too large or too slow end at their bound, named with the host and the limit; the
 * server is stopped being read from, not read to its end.
 */
class BoundedExchangeTest {

    static final long GIB = 1L << 30;
    static final BoundedExchange.Bounds BOUNDS =
            new BoundedExchange.Bounds(64 << 10, Duration.ofSeconds(2));

    HostileServer server;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws IOException {
        server = HostileServer.start();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    /** Runs one exchange reading its whole body, on a thread of its own. */
    CompletableFuture<byte[]> fetch(String path, BoundedExchange.Bounds bounds, Deadline outer) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try (BoundedExchange x =
                            BoundedExchange.send(
                                    http,
                                    HttpRequest.newBuilder(server.url(path)).GET().build(),
                                    bounds,
                                    outer)) {
                        return x.readAll();
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    } catch (InterruptedException e) {
                        throw new RuntimeException(e);
                    }
                });
    }

    /** The failure of {@code f}, once it failed (within a bound far above the one tested). */
    static BoundExceeded failure(CompletableFuture<?> f) {
        await().atMost(Duration.ofSeconds(20)).until(f::isDone);
        assertThat(f).isCompletedExceptionally();
        Throwable t = f.handle((v, e) -> e).join();
        while (t != null && !(t instanceof BoundExceeded)) t = t.getCause();
        assertThat(t).isInstanceOf(BoundExceeded.class);
        return (BoundExceeded) t;
    }

    @Test
    void aSmallAnswerIsReadWhole() {
        server.answer(
                "/ok",
                new HostileServer.Plain(
                        200, "text/plain", "hello".getBytes(StandardCharsets.UTF_8)));
        assertThat(fetch("/ok", BOUNDS, null).join()).asString().isEqualTo("hello");
    }

    @Test
    void anEndlessChunkedAnswerStopsAtItsLimit() {
        server.answer("/huge", new HostileServer.Huge(GIB, false));
        BoundExceeded e = failure(fetch("/huge", BOUNDS, null));
        assertThat(e.kind()).isEqualTo(BoundExceeded.Kind.TOO_LARGE);
        assertThat(e.host()).isEqualTo("127.0.0.1");
        assertThat(e.getMessage())
                .isEqualTo(
                        "127.0.0.1: the answer to GET "
                                + server.url("/huge")
                                + " is larger than 65536 bytes (64 KiB), its limit");
        await("the server sees the client hang up")
                .atMost(Duration.ofSeconds(20))
                .until(() -> server.openConnections() == 0);
        // what socket buffers hold, not the gigabyte
        assertThat(server.bodyBytesSent()).isLessThan(32L << 20);
    }

    @Test
    void aLengthOverTheLimitIsRefusedBeforeItsBody() {
        server.answer("/declared", new HostileServer.Huge(GIB, true));
        BoundExceeded e = failure(fetch("/declared", BOUNDS, null));
        assertThat(e.kind()).isEqualTo(BoundExceeded.Kind.TOO_LARGE);
        await().atMost(Duration.ofSeconds(20)).until(() -> server.openConnections() == 0);
        assertThat(server.bodyBytesSent()).isLessThan(32L << 20);
    }

    @Test
    void aBodySentAByteAtATimeEndsAtTheDeadline() {
        server.answer("/slow", new HostileServer.Trickle(Duration.ofMillis(200), false));
        BoundExceeded e = failure(fetch("/slow", BOUNDS, null));
        assertThat(e.kind()).isEqualTo(BoundExceeded.Kind.TOO_SLOW);
        assertThat(e.getMessage())
                .isEqualTo(
                        "127.0.0.1: no complete answer to GET "
                                + server.url("/slow")
                                + " within 2s, the limit for one answer");
    }

    @Test
    void headersSentAByteAtATimeEndAtTheDeadline() {
        server.answer("/slow-headers", new HostileServer.Trickle(Duration.ofMillis(200), true));
        BoundExceeded e = failure(fetch("/slow-headers", BOUNDS, null));
        assertThat(e.kind()).isEqualTo(BoundExceeded.Kind.TOO_SLOW);
        assertThat(e.getMessage()).contains("within 2s, the limit for one answer");
    }

    @Test
    void anOuterDeadlineEarlierThanTheAnswersOwnIsTheOneNamed() {
        server.answer("/slow", new HostileServer.Trickle(Duration.ofMillis(200), false));
        Deadline outer = Deadline.in(Duration.ofSeconds(1), "reading signature store X");
        BoundExceeded e =
                failure(fetch("/slow", BOUNDS.withDeadline(Duration.ofMinutes(10)), outer));
        assertThat(e.getMessage()).endsWith("within 1s, the limit for reading signature store X");

        await().atMost(Duration.ofSeconds(20)).until(outer::passed);
        e = failure(fetch("/slow", BOUNDS, outer));
        assertThat(e.getMessage())
                .isEqualTo(
                        "GET "
                                + server.url("/slow")
                                + " not read: past 1s, the limit for reading signature store X");
    }

    @Test
    void anInterruptedReadStops() throws Exception {
        server.answer("/slow", new HostileServer.Trickle(Duration.ofMillis(200), false));
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread reader =
                new Thread(
                        () -> {
                            try (BoundedExchange x =
                                    BoundedExchange.send(
                                            http,
                                            HttpRequest.newBuilder(server.url("/slow")).build(),
                                            BOUNDS.withDeadline(Duration.ofMinutes(10)))) {
                                x.readAll();
                                outcome.complete(null);
                            } catch (Exception e) {
                                outcome.complete(e);
                            }
                        });
        reader.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> server.bodyBytesSent() > 2);
        reader.interrupt();
        await().atMost(Duration.ofSeconds(20)).until(outcome::isDone);
        assertThat(outcome.get()).isInstanceOf(java.io.InterruptedIOException.class);
    }
}
