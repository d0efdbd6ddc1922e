package io.upshift.graph.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.runtime.http.Limits;
import io.upshift.testkit.RawHttp;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a client may throw at the service, each while other clients keep being answered: a query
 * string of 20 MB, clients trickling their headers (slowloris), Accept headers it cannot serve,
 * requests it cannot frame (the request-smuggling shape), versions and Hosts RFC 9112 refuses, more
 * connections than its cap, and 10,000 idle connections. Loops are bounded; nothing is timed but by
 * generous bounds.
 */
class GraphServiceBadInputTest {
    static final String GRAPH = "/api/upgrades_info/v1/graph?channel=stable-1.0";

    @TempDir Path dir;
    GraphService service;

    void start(Limits limits) throws Exception {
        service =
                GraphService.start(
                        SmallGraph.write(dir),
                        GraphService.Options.of(new InetSocketAddress("127.0.0.1", 0))
                                .withPoll(Duration.ofHours(1))
                                .withLimits(limits)
                                .withMetrics(new InetSocketAddress("127.0.0.1", 0)),
                        Clock.systemUTC(),
                        line -> {});
    }

    @AfterEach
    void stop() {
        if (service != null) service.close();
    }

    /** Another client, on a connection of its own, gets the graph. */
    static void othersAreAnswered(int port) throws IOException {
        try (RawHttp other = RawHttp.connect(port)) {
            RawHttp.Response r = other.send(RawHttp.get(GRAPH, "Accept-Encoding: gzip")).read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Encoding")).isEqualTo("gzip");
        }
    }

    @Test
    void aQueryOfTwentyMegabytesIs414() throws Exception {
        start(Limits.DEFAULT);
        byte[] request =
                ("GET /api/upgrades_info/v1/graph?channel="
                                + "a".repeat(20 << 20)
                                + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII);
        try (RawHttp huge = RawHttp.connect(service.port())) {
            Thread sender =
                    new Thread(
                            () -> {
                                try {
                                    huge.send(request);
                                } catch (IOException e) {
                                    // the server may close before it is all sent
                                }
                            });
            sender.start();
            RawHttp.Response r = huge.read();
            assertThat(r.status()).isEqualTo(414);
            assertThat(r.text()).isEqualTo("the request line is longer than 8192 bytes\n");
            othersAreAnswered(service.port());
            assertThat(huge.closedByServer()).isTrue();
            sender.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(sender.isAlive()).isFalse();
        }
        othersAreAnswered(service.port());
    }

    @Test
    void clientsTricklingTheirHeadersAreClosedAtTheIdleTimeout() throws Exception {
        start(Limits.DEFAULT.withIdleTimeout(Duration.ofSeconds(1)));
        byte[] request = RawHttp.get(GRAPH).getBytes(StandardCharsets.US_ASCII);
        List<RawHttp> slow = new ArrayList<>();
        for (int i = 0; i < 20; i++) slow.add(RawHttp.connect(service.port()));
        boolean[] closed = new boolean[slow.size()];
        int open = slow.size();
        // a byte every 100 ms from each: a request head would take about 7 s, more than the 1 s
        // allowed; at most 30 s of trying
        for (int round = 0; round < 300 && open > 0; round++) {
            for (int i = 0; i < slow.size(); i++) {
                if (closed[i]) continue;
                try {
                    slow.get(i).send(new byte[] {request[round % request.length]});
                } catch (IOException e) {
                    closed[i] = true;
                    open--;
                }
            }
            if (round % 5 == 0) othersAreAnswered(service.port());
            Thread.sleep(100);
        }
        for (int i = 0; i < slow.size(); i++) {
            if (!closed[i])
                assertThat(slow.get(i).closedByServer()).as("connection %d", i).isTrue();
            slow.get(i).close();
        }
        othersAreAnswered(service.port());
    }

    @Test
    void acceptHeadersItCannotServe() throws Exception {
        start(Limits.DEFAULT);
        try (RawHttp c = RawHttp.connect(service.port())) {
            RawHttp.Response unknown =
                    c.send(RawHttp.get(GRAPH, "Accept: application/x-unknown")).read();
            assertThat(unknown.status()).isEqualTo(406);
            assertThat(unknown.text())
                    .startsWith(
                            "{\"kind\":\"invalid_content_type\",\"value\":\"invalid Content-Type"
                                    + " requested: application/x-unknown; use one of");
            // ten thousand bytes of types, none of them JSON: read to the end, refused, and the
            // connection still serves
            StringBuilder many = new StringBuilder();
            for (int i = 0; i < 600; i++) many.append("text/x-").append(i).append(";q=0.5, ");
            RawHttp.Response list = c.send(RawHttp.get(GRAPH, "Accept: " + many)).read();
            assertThat(list.status()).isEqualTo(406);
            assertThat(c.send(RawHttp.get(GRAPH, "Accept: text/html, */*;q=0.1")).read().status())
                    .isEqualTo(200);
            // a control character is not a header value: 400, and the connection is done
            assertThat(c.send(RawHttp.get(GRAPH, "Accept: a\u0000b")).read().status())
                    .isEqualTo(400);
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawHttp c = RawHttp.connect(service.port())) {
            RawHttp.Response huge =
                    c.send(RawHttp.get(GRAPH, "Accept: " + "x".repeat(20_000))).read();
            assertThat(huge.status()).isEqualTo(431);
            assertThat(c.closedByServer()).isTrue();
        }
        othersAreAnswered(service.port());
    }

    /**
     * Ten thousand connections take ten thousand files on each side, and the test JVM may open
     * 20,000 (this machine's limit): the service runs in a JVM of its own, as {@code upshift graph
     * serve}.
     */
    @Test
    @Tag("e2e")
    void tenThousandIdleConnections() throws Exception {
        SmallGraph.write(dir);
        Process server =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Xmx384m",
                                "-cp",
                                System.getProperty("java.class.path"),
                                GraphServeMain.class.getName(),
                                "serve",
                                "--releases",
                                dir.resolve("releases").toString(),
                                "--graph-data",
                                dir.resolve("data").toString(),
                                "--port",
                                "0",
                                "--idle-timeout",
                                "PT10M")
                        .redirectErrorStream(true)
                        .start();
        List<Socket> idle = new ArrayList<>();
        try {
            int port = port(server).get(60, TimeUnit.SECONDS);
            for (int i = 0; i < 10_000; i++) {
                idle.add(new Socket(InetAddress.getLoopbackAddress(), port));
                if (i % 1000 == 999) othersAreAnswered(port);
            }
            othersAreAnswered(port);
            // the idle ones are still served when they speak
            for (int i = 0; i < idle.size(); i += 1000) {
                Socket s = idle.get(i);
                s.setSoTimeout(30_000);
                s.getOutputStream().write(RawHttp.get(GRAPH).getBytes(StandardCharsets.US_ASCII));
                String status =
                        new BufferedReader(
                                        new InputStreamReader(
                                                s.getInputStream(), StandardCharsets.US_ASCII))
                                .readLine();
                assertThat(status).as("connection %d", i).isEqualTo("HTTP/1.1 200 OK");
            }
        } finally {
            for (Socket s : idle) s.close();
            server.destroy();
            if (!server.waitFor(20, TimeUnit.SECONDS)) server.destroyForcibly();
        }
    }

    /**
     * {@code Transfer-Encoding: xchunked} with a second request behind it: one 501, the connection
     * closed, the second request never answered (behind a proxy that framed it otherwise, it would
     * have been answered as a request of its own); the other shapes RFC 9112 §6 refuses alike.
     */
    @Test
    void requestsItCannotFrameAreRefusedAndTheirConnectionClosed() throws Exception {
        start(Limits.DEFAULT);
        try (RawHttp c = RawHttp.connect(service.port())) {
            RawHttp.Response r =
                    c.send(
                                    "GET "
                                            + GRAPH
                                            + " HTTP/1.1\r\nHost: localhost\r\n"
                                            + "Transfer-Encoding: xchunked\r\n\r\n"
                                            + RawHttp.get(GRAPH + "&smuggled=1"))
                            .read();
            assertThat(r.status()).isEqualTo(501);
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(c.closedByServer()).isTrue();
        }
        for (String[] bad :
                new String[][] {
                    {"Transfer-Encoding: chunked", "Content-Length: 4"},
                    {"Transfer-Encoding : chunked"},
                    {"Transfer-Encoding: chunked, chunked"},
                    {"Transfer-Encoding: gzip"}
                }) {
            try (RawHttp c = RawHttp.connect(service.port())) {
                RawHttp.Response r = c.send(RawHttp.get(GRAPH, bad) + RawHttp.get(GRAPH)).read();
                assertThat(r.status()).as(String.join(", ", bad)).isIn(400, 501);
                assertThat(c.closedByServer()).isTrue();
            }
            othersAreAnswered(service.port());
        }
        // none of them reached the service: only the others' requests are counted
        assertThat(scrape())
                .contains("upshift_graph_requests_total{code=\"200\"} 4.0\n")
                .doesNotContain("code=\"501\"");
    }

    /**
     * {@code HTTP/9.9} is 505; an HTTP/1.1 request without a Host, or with two, 400; each closes
     * its connection while others are answered.
     */
    @Test
    void otherVersionsAndAnythingButOneHostAreRefused() throws Exception {
        start(Limits.DEFAULT);
        String[][] cases = {
            {"GET " + GRAPH + " HTTP/9.9\r\nHost: localhost\r\n\r\n", "505"},
            {"GET " + GRAPH + " HTTP/2.0\r\nHost: localhost\r\n\r\n", "505"},
            {"GET " + GRAPH + " HTTP/1.1\r\n\r\n", "400"},
            {"GET " + GRAPH + " HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "400"},
            {"GET " + GRAPH + " HTTP/1.1\r\nHost: a b\r\n\r\n", "400"},
        };
        for (String[] x : cases) {
            try (RawHttp c = RawHttp.connect(service.port())) {
                RawHttp.Response r = c.send(x[0]).read();
                assertThat(r.status()).as(x[0]).isEqualTo(Integer.parseInt(x[1]));
                assertThat(c.closedByServer()).isTrue();
            }
            othersAreAnswered(service.port());
        }
        try (RawHttp c = RawHttp.connect(service.port())) {
            // HTTP/1.0 needs no Host
            assertThat(c.send("GET " + GRAPH + " HTTP/1.0\r\n\r\n").read().status()).isEqualTo(200);
        }
    }

    /**
     * Past {@code --max-connections} a connection is answered 503 with Retry-After and closed,
     * counted in {@code upshift_graph_connections_refused_total}; those held are still served, and
     * once they close new ones are again.
     */
    @Test
    void connectionsOverTheCapAre503AndCounted() throws Exception {
        start(Limits.DEFAULT.withMaxConnections(10));
        List<RawHttp> held = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) held.add(RawHttp.connect(service.port()));
            // the server has taken the ten (accepting is asynchronous)
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> scrape().contains("upshift_graph_connections 10.0\n"));
            for (int i = 0; i < 5; i++) {
                try (RawHttp over = RawHttp.connect(service.port())) {
                    RawHttp.Response r = over.send(RawHttp.get(GRAPH)).read();
                    assertThat(r.status()).isEqualTo(503);
                    assertThat(r.header("Retry-After")).isEqualTo("1");
                    assertThat(over.closedByServer()).isTrue();
                }
            }
            assertThat(scrape()).contains("upshift_graph_connections_refused_total 5.0\n");
            for (RawHttp c : held)
                assertThat(c.send(RawHttp.get(GRAPH)).read().status()).isEqualTo(200);
        } finally {
            for (RawHttp c : held) c.close();
        }
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> othersAreAnswered(service.port()));
    }

    /** The metrics port's text. */
    private String scrape() throws IOException {
        try (RawHttp c = RawHttp.connect(service.metricsPort())) {
            RawHttp.Response r = c.send(RawHttp.get("/metrics")).read();
            assertThat(r.status()).isEqualTo(200);
            return r.text();
        }
    }

    /** The port the server says it serves on. */
    private static CompletableFuture<Integer> port(Process server) {
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Pattern serving = Pattern.compile("serving .* on http://127\\.0\\.0\\.1:(\\d+)/");
        Thread reader =
                new Thread(
                        () -> {
                            StringBuilder seen = new StringBuilder();
                            try (BufferedReader out =
                                    new BufferedReader(
                                            new InputStreamReader(
                                                    server.getInputStream(),
                                                    StandardCharsets.UTF_8))) {
                                for (String line = out.readLine();
                                        line != null;
                                        line = out.readLine()) {
                                    seen.append(line).append('\n');
                                    Matcher m = serving.matcher(line);
                                    if (m.find()) port.complete(Integer.parseInt(m.group(1)));
                                }
                            } catch (IOException e) {
                                // the process is gone
                            }
                            port.completeExceptionally(
                                    new IllegalStateException("the server ended: " + seen));
                        });
        reader.setDaemon(true);
        reader.start();
        return port;
    }
}
