package io.upshift.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.testkit.RawHttp;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server on loopback, through raw sockets: keep-alive, HEAD, and each limit answered as it
 * says, the connection closed where the client would send more than is read.
 */
class HttpServerTest {
    final AtomicInteger answered = new AtomicInteger();
    final List<HttpServer> servers = new ArrayList<>();

    HttpServer start(Limits limits, int blockingThreads, Endpoint endpoint) throws Exception {
        HttpServer s =
                HttpServer.start(
                        ServerOptions.of("test-http", new InetSocketAddress("127.0.0.1", 0))
                                .withEventLoops(1)
                                .withBlockingThreads(blockingThreads)
                                .withLimits(limits),
                        endpoint);
        servers.add(s);
        return s;
    }

    HttpServer echo(Limits limits) throws Exception {
        return start(
                limits,
                0,
                r -> {
                    answered.incrementAndGet();
                    return Reply.text(200, r.method() + " " + r.path() + " " + r.rawQuery() + "\n");
                });
    }

    @AfterEach
    void stop() {
        servers.forEach(HttpServer::close);
    }

    @Test
    void keepAliveAndHead() throws Exception {
        HttpServer s = echo(Limits.DEFAULT);
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response first = c.send(RawHttp.get("/a?x=1")).read();
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.text()).isEqualTo("GET /a x=1\n");
            assertThat(first.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
            assertThat(first.header("Date")).endsWith(" GMT");
            assertThat(first.header("Connection")).isNull();

            RawHttp.Response head =
                    c.send("HEAD /b HTTP/1.1\r\nHost: localhost\r\n\r\n").readHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo("13"); // "HEAD /b null\n"
            // the same connection still answers, so no body was sent after the HEAD's headers
            assertThat(c.send(RawHttp.get("/c")).read().text()).isEqualTo("GET /c null\n");

            // pipelined: answered in order
            RawHttp.Response[] three = new RawHttp.Response[3];
            c.send(RawHttp.get("/1") + RawHttp.get("/2") + RawHttp.get("/3"));
            for (int i = 0; i < 3; i++) three[i] = c.read();
            assertThat(three)
                    .extracting(RawHttp.Response::text)
                    .containsExactly("GET /1 null\n", "GET /2 null\n", "GET /3 null\n");

            RawHttp.Response last = c.send(RawHttp.get("/d", "Connection: close")).read();
            assertThat(last.header("Connection")).isEqualTo("close");
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawHttp old = RawHttp.connect(s.port())) {
            RawHttp.Response r =
                    old.send("GET /e HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").read();
            assertThat(r.header("Connection")).isEqualTo("keep-alive");
            assertThat(old.send("GET /f HTTP/1.0\r\n\r\n").read().text())
                    .isEqualTo("GET /f null\n");
            assertThat(old.closedByServer()).isTrue();
        }
    }

    @Test
    void tooLongALineIs414AndTooManyHeaders431AndGarbage400() throws Exception {
        HttpServer s = echo(Limits.DEFAULT);
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r = c.send(RawHttp.get("/?q=" + "a".repeat(9000))).read();
            assertThat(r.status()).isEqualTo(414);
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(r.text()).isEqualTo("the request line is longer than 8192 bytes\n");
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r =
                    c.send(RawHttp.get("/", "X-Padding: " + "b".repeat(17_000))).read();
            assertThat(r.status()).isEqualTo(431);
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r = c.send("HELLO\r\n\r\n").read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.text()).startsWith("not an HTTP/1.x request: ");
            assertThat(c.closedByServer()).isTrue();
        }
        assertThat(answered).hasValue(0);
        try (RawHttp c = RawHttp.connect(s.port())) {
            assertThat(c.send(RawHttp.get("/fine")).read().status()).isEqualTo(200);
        }
    }

    @Test
    void aRequestWithABodyIsAnsweredThenTheConnectionClosed() throws Exception {
        HttpServer s = echo(Limits.DEFAULT);
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r =
                    c.send(
                                    "POST /p HTTP/1.1\r\n"
                                            + "Host: localhost\r\n"
                                            + "Content-Length: 5\r\n\r\n"
                                            + "hello")
                            .read();
            assertThat(r.text()).isEqualTo("POST /p null\n");
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void requestsBeyondTheRateAre429() throws Exception {
        HttpServer s = echo(Limits.DEFAULT.withRequestsPerSecond(2));
        try (RawHttp c = RawHttp.connect(s.port())) {
            c.send(RawHttp.get("/").repeat(10));
            List<RawHttp.Response> answers = new ArrayList<>();
            for (int i = 0; i < 10; i++) answers.add(c.read());
            assertThat(answers.subList(0, 2)).allMatch(r -> r.status() == 200);
            // ten requests sent at once: unless four seconds pass between them, some are refused
            assertThat(answers).anyMatch(r -> r.status() == 429);
            RawHttp.Response refused =
                    answers.stream().filter(r -> r.status() == 429).findFirst().orElseThrow();
            assertThat(refused.header("Retry-After")).isEqualTo("1");
            assertThat(refused.text())
                    .isEqualTo("too many requests on this connection: at most 2 a second\n");
        }
        try (RawHttp other = RawHttp.connect(s.port())) {
            assertThat(other.send(RawHttp.get("/")).read().status())
                    .as("another connection has its own budget")
                    .isEqualTo(200);
        }
    }

    @Test
    void aSlowClientIsClosedAtTheIdleTimeoutWhileOthersAreAnswered() throws Exception {
        HttpServer s = echo(Limits.DEFAULT.withIdleTimeout(Duration.ofMillis(500)));
        byte[] request = RawHttp.get("/slow").getBytes();
        try (RawHttp slow = RawHttp.connect(s.port())) {
            boolean closed = false;
            // a byte every 50 ms: the request head would take 2 s; at most 20 s of trying
            for (int i = 0; i < 400 && !closed; i++) {
                try {
                    slow.send(new byte[] {request[i % request.length]});
                } catch (IOException e) {
                    closed = true;
                }
                if (i % 10 == 0) {
                    try (RawHttp other = RawHttp.connect(s.port())) {
                        assertThat(other.send(RawHttp.get("/other")).read().status())
                                .isEqualTo(200);
                    }
                }
                Thread.sleep(50);
            }
            assertThat(closed || slow.closedByServer())
                    .as("the slow connection was closed")
                    .isTrue();
        }
        try (RawHttp idle = RawHttp.connect(s.port())) {
            assertThat(idle.closedByServer()).as("an idle connection is closed").isTrue();
        }
    }

    @Test
    void aBlockingEndpointAnswersEachConnectionInOrder() throws Exception {
        HttpServer s =
                start(
                        Limits.DEFAULT,
                        4,
                        r -> {
                            try {
                                // the first answers take longest: a pool of four would reorder
                                Thread.sleep(r.path().equals("/1") ? 200 : 10);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return Reply.text(200, r.path());
                        });
        try (RawHttp c = RawHttp.connect(s.port())) {
            c.send(RawHttp.get("/1") + RawHttp.get("/2") + RawHttp.get("/3") + RawHttp.get("/4"));
            List<String> order = new ArrayList<>();
            for (int i = 0; i < 4; i++) order.add(c.read().text());
            assertThat(order).containsExactly("/1", "/2", "/3", "/4");
        }
    }

    @Test
    void anEndpointThatFailsIs500() throws Exception {
        HttpServer s =
                start(
                        Limits.DEFAULT,
                        0,
                        r -> {
                            throw new IllegalStateException("broken");
                        });
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r = c.send(RawHttp.get("/")).read();
            assertThat(r.status()).isEqualTo(500);
            assertThat(r.text()).isEqualTo("internal error: broken\n");
            assertThat(c.send(RawHttp.get("/")).read().status()).isEqualTo(500);
        }
    }
}
