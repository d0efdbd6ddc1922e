package io.upshift.runtime.http;

import static java.nio.charset.StandardCharsets.UTF_8;
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
        byte[] request = RawHttp.get("/slow").getBytes(UTF_8);
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

    /**
     * The request-smuggling shape: a transfer coding the server cannot frame a body by, with a
     * second request behind it. One refusal (501, RFC 9112 §6.1), the connection closed, the second
     * never answered; a request pipelined before it is answered as usual.
     */
    @Test
    void aTransferCodingItCannotFrameIs501AndWhatFollowsIsNeverAnswered() throws Exception {
        HttpServer s = echo(Limits.DEFAULT);
        try (RawHttp c = RawHttp.connect(s.port())) {
            c.send(
                    RawHttp.get("/before")
                            + "GET /a HTTP/1.1\r\nHost: localhost\r\n"
                            + "Transfer-Encoding: xchunked\r\n\r\n"
                            + RawHttp.get("/smuggled"));
            assertThat(c.read().text()).isEqualTo("GET /before null\n");
            RawHttp.Response r = c.read();
            assertThat(r.status()).isEqualTo(501);
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(r.text())
                    .isEqualTo(
                            "transfer coding \"xchunked\" is not implemented: chunked alone is\n");
            assertThat(c.closedByServer()).isTrue();
        }
        for (String codings :
                List.of("gzip, chunked", "chunked, identity", "chunked;q=1", "CHUNKED, x")) {
            RawHttp.Response r = once(s, "Transfer-Encoding: " + codings);
            assertThat(r.status()).as(codings).isEqualTo(501);
        }
        // two lines of it are one list
        assertThat(once(s, "Transfer-Encoding: chunked", "Transfer-Encoding: xchunked").status())
                .isEqualTo(501);
        assertThat(answered).hasValue(1); // only /before reached the endpoint
    }

    /**
     * What RFC 9112 §6 says cannot be framed reliably is 400, then the connection closed: both
     * Transfer-Encoding and Content-Length, chunked twice, Transfer-Encoding in HTTP/1.0, white
     * space before a header's colon (so "Transfer-Encoding :" is not a header of its own).
     */
    @Test
    void requestsThatCannotBeFramedReliablyAre400AndClosed() throws Exception {
        HttpServer s = echo(Limits.DEFAULT);
        RawHttp.Response both = once(s, "Transfer-Encoding: chunked", "Content-Length: 5");
        assertThat(both.status()).isEqualTo(400);
        assertThat(both.text())
                .isEqualTo(
                        "a request with both Transfer-Encoding and Content-Length cannot be framed"
                                + " reliably\n");
        assertThat(once(s, "Transfer-Encoding: chunked, chunked").text())
                .isEqualTo("chunked is applied more than once\n");
        assertThat(once(s, "Transfer-Encoding: ,").status()).isEqualTo(400);
        RawHttp.Response space = once(s, "Transfer-Encoding : chunked");
        assertThat(space.status()).isEqualTo(400);
        assertThat(space.text()).startsWith("a header name holds white space");
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r =
                    c.send("GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.text()).isEqualTo("an HTTP/1.0 request cannot carry Transfer-Encoding\n");
            assertThat(c.closedByServer()).isTrue();
        }
        assertThat(answered).hasValue(0);
        // a chunked body, which is not read: answered, then the connection closed
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r =
                    c.send(
                                    "POST /p HTTP/1.1\r\nHost: localhost\r\n"
                                            + "Transfer-Encoding: chunked\r\n\r\n"
                                            + "5\r\nhello\r\n0\r\n\r\n"
                                            + RawHttp.get("/next"))
                            .read();
            assertThat(r.text()).isEqualTo("POST /p null\n");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    /**
     * HTTP/1.0 and 1.1 are served; another major version is 505 (RFC 9112 §2.3), a later 1.x read
     * as 1.1 (RFC 9110 §6.2), what is not {@code HTTP/} DIGIT {@code .} DIGIT (the name is
     * case-sensitive) 400; each refusal closes the connection.
     */
    @Test
    void versionsOtherThanHttp1Are505() throws Exception {
        HttpServer s = echo(Limits.DEFAULT);
        for (String version : List.of("HTTP/9.9", "HTTP/2.0", "HTTP/0.9", "HTTP/3.0")) {
            try (RawHttp c = RawHttp.connect(s.port())) {
                RawHttp.Response r =
                        c.send("GET / " + version + "\r\nHost: localhost\r\n\r\n").read();
                assertThat(r.status()).as(version).isEqualTo(505);
                assertThat(r.text())
                        .isEqualTo("HTTP/1.1 and HTTP/1.0 are served, not " + version + "\n");
                assertThat(c.closedByServer()).isTrue();
            }
        }
        for (String version :
                List.of("http/1.1", "HTTP/1.10", "HTTP/01.1", "HTTP/1", "HTTPS/1.1")) {
            try (RawHttp c = RawHttp.connect(s.port())) {
                RawHttp.Response r =
                        c.send("GET / " + version + "\r\nHost: localhost\r\n\r\n").read();
                assertThat(r.status()).as(version).isEqualTo(400);
                assertThat(r.text()).startsWith("not an HTTP/1.x request: ");
                assertThat(c.closedByServer()).isTrue();
            }
        }
        assertThat(answered).hasValue(0);
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r = c.send("GET /v HTTP/1.2\r\nHost: localhost\r\n\r\n").read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Connection")).isNull(); // kept alive, as 1.1
            assertThat(c.send(RawHttp.get("/next")).read().status()).isEqualTo(200);
        }
    }

    /** RFC 9112 §3.2: exactly one valid Host in HTTP/1.1, at most one in HTTP/1.0; else 400. */
    @Test
    void exactlyOneHostInHttp11() throws Exception {
        HttpServer s = echo(Limits.DEFAULT);
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r = c.send("GET / HTTP/1.1\r\n\r\n").read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.text()).isEqualTo("an HTTP/1.1 request needs a Host header\n");
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r = c.send("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n").read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.text()).isEqualTo("more than one Host header\n");
            assertThat(c.closedByServer()).isTrue();
        }
        for (String host : List.of("a b", "a:b", "[::1", "a/b", "a@b", "%zz")) {
            try (RawHttp c = RawHttp.connect(s.port())) {
                RawHttp.Response r = c.send("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n").read();
                assertThat(r.status()).as(host).isEqualTo(400);
                assertThat(r.text()).isEqualTo("the Host header is not a host[:port]\n");
            }
        }
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r = c.send("GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n").read();
            assertThat(r.status()).isEqualTo(400);
        }
        assertThat(answered).hasValue(0);
        for (String host :
                List.of("", "localhost", "127.0.0.1:8080", "[::1]:8080", "graph.example.com:")) {
            try (RawHttp c = RawHttp.connect(s.port())) {
                RawHttp.Response r = c.send("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n").read();
                assertThat(r.status()).as("Host: %s", host).isEqualTo(200);
            }
        }
        try (RawHttp c = RawHttp.connect(s.port())) {
            assertThat(c.send("GET / HTTP/1.0\r\n\r\n").read().status()).isEqualTo(200);
        }
    }

    /**
     * Connections over the cap are answered 503 with Retry-After and closed, never reaching the
     * endpoint; they are counted, and logged once for the whole episode, not once each. Once
     * connections close, new ones are served again.
     */
    @Test
    void connectionsOverTheCapAre503AndClosedAndLoggedOnce() throws Exception {
        HttpServer s = echo(Limits.DEFAULT.withMaxConnections(3));
        List<RawHttp> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                RawHttp c = RawHttp.connect(s.port());
                assertThat(c.send(RawHttp.get("/held")).read().status()).isEqualTo(200);
                held.add(c);
            }
            for (int i = 0; i < 20; i++) {
                try (RawHttp over = RawHttp.connect(s.port())) {
                    RawHttp.Response r = over.send(RawHttp.get("/over")).read();
                    assertThat(r.status()).isEqualTo(503);
                    assertThat(r.header("Retry-After")).isEqualTo("1");
                    assertThat(r.header("Connection")).isEqualTo("close");
                    assertThat(over.closedByServer()).isTrue();
                }
            }
            assertThat(s.refusedConnections()).isEqualTo(20);
            assertThat(s.openConnections()).isEqualTo(3);
            assertThat(answered).hasValue(3);
            // the held ones are still served
            assertThat(held.get(0).send(RawHttp.get("/still")).read().status()).isEqualTo(200);
        } finally {
            for (RawHttp c : held) c.close();
        }
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> s.openConnections() == 0);
        try (RawHttp c = RawHttp.connect(s.port())) {
            assertThat(c.send(RawHttp.get("/again")).read().status()).isEqualTo(200);
        }
        assertThat(s.capLines())
                .as("one line at the cap, one back under it: not one per refusal")
                .isEqualTo(2);
    }

    /** A request with {@code headers} and no body on a connection of its own, which must close. */
    private static RawHttp.Response once(HttpServer s, String... headers) throws IOException {
        try (RawHttp c = RawHttp.connect(s.port())) {
            RawHttp.Response r = c.send(RawHttp.get("/once", headers)).read();
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(c.closedByServer()).as("closed after %s", r.status()).isTrue();
            return r;
        }
    }
}
