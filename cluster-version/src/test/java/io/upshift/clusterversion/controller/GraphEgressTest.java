package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.upshift.testkit.LocalProxy;
import io.upshift.testkit.TestCertificates;
import io.upshift.testkit.WithStatus;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster-version controller asks the update graph the cluster's way, as upstream's does: over
 * the Proxy {@code cluster}'s status (httpsProxy; noProxy hosts around it) and trusting the
 * ConfigMap {@code openshift-config-managed/trusted-ca-bundle}, both read from its caches as its
 * deploy/ ServiceAccount. The graph's server is known by a name only the test's proxy resolves, and
 * serves a certificate only that bundle's CA signed.
 */
@Tag("e2e")
class GraphEgressTest {

    @TempDir Path dir;

    @Test
    void theGraphIsAskedThroughTheClustersProxyTrustingItsBundle() throws Exception {
        TestCertificates ca = TestCertificates.authority("corporate-proxy-ca");
        AtomicInteger asked = new AtomicInteger();
        HttpsServer graph = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        graph.setHttpsConfigurator(new HttpsConfigurator(ca.server("updates.upshift.test")));
        graph.createContext(
                "/graph",
                x -> {
                    asked.incrementAndGet();
                    byte[] b =
                            ("{\"nodes\":[{\"version\":\"4.1.0\",\"payload\":\"example.com/r@sha256:"
                                            + "0".repeat(64)
                                            + "\",\"metadata\":{}},"
                                            + "{\"version\":\"4.1.1\",\"payload\":\"example.com/r@sha256:"
                                            + "1".repeat(64)
                                            + "\",\"metadata\":{}}],"
                                            + "\"edges\":[[0,1]],\"conditionalEdges\":[]}")
                                    .getBytes(StandardCharsets.UTF_8);
                    x.sendResponseHeaders(200, b.length);
                    x.getResponseBody().write(b);
                    x.close();
                });
        graph.start();
        String upstream = "https://updates.upshift.test:" + graph.getAddress().getPort() + "/graph";
        try (LocalProxy proxy = LocalProxy.start();
                ControllerHarness h = new ControllerHarness(dir)) {
            proxy(h, proxy.url(), "localhost,.cluster.local,direct.upshift.test");
            h.client
                    .configMaps()
                    .resource(
                            new ConfigMapBuilder()
                                    .withNewMetadata()
                                    .withNamespace("openshift-config-managed")
                                    .withName("trusted-ca-bundle")
                                    .endMetadata()
                                    .withData(Map.of("ca-bundle.crt", ca.pem()))
                                    .build())
                    .create();
            upstream(h, upstream);
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("updates retrieved through the proxy")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> status(h, "RetrievedUpdates").equals("True"));
            assertThat(h.clusterVersion().getStatus().getAvailableUpdates())
                    .extracting(Release::getVersion)
                    .containsExactly("4.1.1");
            assertThat(proxy.requests())
                    .containsExactly(
                            "CONNECT updates.upshift.test:"
                                    + graph.getAddress().getPort()
                                    + " HTTP/1.1");
            assertThat(asked).hasValue(1);

            // a graph on a host noProxy names is asked directly, where the name does not resolve:
            // the proxy is not asked again
            upstream(h, "https://direct.upshift.test:" + graph.getAddress().getPort() + "/graph");
            await("asked directly, and failed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> status(h, "RetrievedUpdates").equals("False"));
            assertThat(h.condition("RetrievedUpdates").getReason()).isEqualTo("RemoteFailed");
            assertThat(h.condition("RetrievedUpdates").getMessage())
                    .contains("direct.upshift.test");
            assertThat(proxy.requests()).hasSize(1);
            assertThat(asked).hasValue(1);
        } finally {
            graph.stop(0);
        }
    }

    private static String status(ControllerHarness h, String type) {
        ClusterOperatorStatusCondition c = h.condition(type);
        return c == null ? "" : c.getStatus();
    }

    private static void upstream(ControllerHarness h, String url) {
        h.editSpec(spec -> spec.setUpstream(url));
    }

    /** The Proxy {@code cluster}, as the network operator publishes it in its status. */
    private static void proxy(ControllerHarness h, String url, String noProxy) {
        var proxies = h.client.genericKubernetesResources("config.openshift.io/v1", "Proxy");
        Map<String, Object> status =
                Map.of("httpProxy", url, "httpsProxy", url, "noProxy", noProxy);
        if (proxies.withName("cluster").get() == null) {
            GenericKubernetesResource p =
                    new GenericKubernetesResourceBuilder()
                            .withApiVersion("config.openshift.io/v1")
                            .withKind("Proxy")
                            .withNewMetadata()
                            .withName("cluster")
                            .endMetadata()
                            .build();
            p.setAdditionalProperty("spec", Map.of());
            p.setAdditionalProperty("status", status);
            WithStatus.create(h.client, p);
        } else {
            proxies.withName("cluster")
                    .editStatus(
                            p -> {
                                p.setAdditionalProperty("status", status);
                                return p;
                            });
        }
    }
}
