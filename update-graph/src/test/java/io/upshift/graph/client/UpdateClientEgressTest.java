package io.upshift.graph.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.upshift.graph.updates.AvailableUpdates;
import io.upshift.graph.updates.Target;
import io.upshift.graph.updates.UpdatesRequest;
import io.upshift.releases.image.Egress;
import io.upshift.releases.image.ProxyRules;
import io.upshift.testkit.LocalProxy;
import io.upshift.testkit.TestCertificates;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The update graph asked the cluster's way: through its proxy (a local proxy that reaches servers
 * by names only it resolves, and counts what goes through it), around it for noProxy hosts, and
 * over TLS trusting the cluster's trusted CA bundle alone.
 */
@Tag("e2e")
class UpdateClientEgressTest {

    static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");
    static final String GRAPH = UpdateClientTest.GRAPH;

    final TestCertificates ca = TestCertificates.authority("cluster-proxy-ca");
    final AtomicInteger plainRequests = new AtomicInteger(), tlsRequests = new AtomicInteger();
    HttpServer plain;
    HttpsServer tls;
    LocalProxy proxy;

    @BeforeEach
    void start() throws Exception {
        plain = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        plain.createContext("/graph", x -> answer(x, plainRequests));
        plain.start();
        tls = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        tls.setHttpsConfigurator(new HttpsConfigurator(ca.server("graph.upshift.test")));
        tls.createContext("/graph", x -> answer(x, tlsRequests));
        tls.start();
        proxy = LocalProxy.start();
    }

    private static void answer(HttpExchange x, AtomicInteger count) throws IOException {
        count.incrementAndGet();
        byte[] b = GRAPH.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(200, b.length);
        x.getResponseBody().write(b);
        x.close();
    }

    @AfterEach
    void stop() throws Exception {
        plain.stop(0);
        tls.stop(0);
        proxy.close();
    }

    static UpdatesRequest request(String upstream) {
        return new UpdatesRequest(upstream, "stable-1.0", "amd64", UpdateClientTest.ID, "1.0.0");
    }

    static AvailableUpdates ask(UpdatesRequest r, Egress egress) {
        return new UpdateClient(Duration.ofSeconds(5), new SplittableRandom(1))
                .refresh(AvailableUpdates.seed(r, null, T0), r, egress, T0);
    }

    Egress through(String noProxy, String bundle) {
        return new Egress(ProxyRules.of(proxy.url(), proxy.url(), noProxy), bundle);
    }

    @Test
    void theGraphIsFetchedThroughTheClustersProxy() {
        String url = "http://graph.upshift.test:" + plain.getAddress().getPort() + "/graph";
        AvailableUpdates s = ask(request(url), through("", ""));
        assertThat(s.status()).as(s.message()).isEqualTo("True");
        assertThat(s.current(request(url), T0).orElseThrow().available())
                .extracting(Target::version)
                .containsExactly("1.0.1");
        assertThat(proxy.requests())
                .singleElement()
                .asString()
                .startsWith("GET " + url + "?")
                .endsWith(" HTTP/1.1");
        assertThat(plainRequests).hasValue(1);
    }

    @Test
    void overTlsItTrustsTheClustersBundleAndNothingElse() {
        String url = "https://graph.upshift.test:" + tls.getAddress().getPort() + "/graph";
        AvailableUpdates trusted = ask(request(url), through("", ca.pem()));
        assertThat(trusted.status()).as(trusted.message()).isEqualTo("True");
        assertThat(proxy.requests())
                .containsExactly(
                        "CONNECT graph.upshift.test:" + tls.getAddress().getPort() + " HTTP/1.1");

        // the system's authorities do not know the cluster's CA ...
        AvailableUpdates system = ask(request(url), through("", ""));
        assertThat(system.status()).isEqualTo("False");
        assertThat(system.reason()).isEqualTo("RemoteFailed");
        // ... and a bundle of another CA replaces them
        AvailableUpdates other =
                ask(request(url), through("", TestCertificates.authority("someone-else").pem()));
        assertThat(other.reason()).isEqualTo("RemoteFailed");
        assertThat(tlsRequests).hasValue(1);

        AvailableUpdates garbage = ask(request(url), through("", "not a certificate"));
        assertThat(garbage.reason()).isEqualTo("RemoteFailed");
        assertThat(garbage.message())
                .isEqualTo(
                        "Unable to retrieve available updates: unable to add ca-bundle.crt"
                                + " certificates (ConfigMap"
                                + " openshift-config-managed/trusted-ca-bundle)");
    }

    @Test
    void aNoProxyHostIsAskedDirectly() throws Exception {
        // a name only the proxy resolves: once noProxy names it, the client goes direct and fails
        String hidden = "http://graph.upshift.test:" + plain.getAddress().getPort() + "/graph";
        AvailableUpdates around = ask(request(hidden), through(".upshift.test", ""));
        assertThat(around.reason()).isEqualTo("RemoteFailed");
        assertThat(around.message()).contains("graph.upshift.test");
        assertThat(proxy.requests()).isEmpty();

        // this machine's own name, which it resolves itself: answered directly
        InetAddress self;
        try {
            self = InetAddress.getLocalHost();
        } catch (UnknownHostException e) {
            self = null;
        }
        assumeThat(self).as("this machine resolves its own name").isNotNull();
        HttpServer local = HttpServer.create(new InetSocketAddress(self, 0), 0);
        AtomicInteger localRequests = new AtomicInteger();
        local.createContext("/graph", x -> answer(x, localRequests));
        local.start();
        try {
            String url =
                    "http://" + self.getHostName() + ":" + local.getAddress().getPort() + "/graph";
            AvailableUpdates direct = ask(request(url), through(self.getHostName(), ""));
            assertThat(direct.status()).as(direct.message()).isEqualTo("True");
            assertThat(localRequests).hasValue(1);
            assertThat(proxy.requests()).isEmpty();
        } finally {
            local.stop(0);
        }
    }
}
