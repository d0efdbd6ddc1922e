package io.upshift.releases.signatures;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.upshift.releases.image.Egress;
import io.upshift.releases.image.ProxyRules;
import io.upshift.releases.verify.SignatureStore;
import io.upshift.testkit.LocalProxy;
import io.upshift.testkit.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
@Tag("e2e")
class SignatureStoresTest {

    static final String HEX = "5".repeat(64);
    static final String DIGEST = "sha256:" + HEX;

    KubernetesClient client;

    @Test
    void httpStoreReadsSignaturesUntilTheFirst404() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(
                "/sigs/",
                x -> {
                    String path = x.getRequestURI().getPath();
                    byte[] body =
                            path.equals("/sigs/sha256=" + HEX + "/signature-1")
                                    ? "one".getBytes(UTF_8)
                                    : path.equals("/sigs/sha256=" + HEX + "/signature-2")
                                            ? "two".getBytes(UTF_8)
                                            : null;
                    int status = path.contains("broken") ? 500 : body == null ? 404 : 200;
                    x.sendResponseHeaders(status, body == null ? -1 : body.length);
                    if (body != null) x.getResponseBody().write(body);
                    x.close();
                });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            SignatureStore store =
                    new SignatureStores(HttpSignatureStore.defaultClient())
                            .open(URI.create(base + "/sigs"));
            assertThat(store.signatures(DIGEST))
                    .extracting(b -> new String(b, StandardCharsets.UTF_8))
                    .containsExactly("one", "two");
            assertThat(store.signatures("sha256:" + "6".repeat(64))).isEmpty();
            SignatureStore broken =
                    new HttpSignatureStore(
                            URI.create(base + "/sigs/broken"), HttpSignatureStore.defaultClient());
            assertThatThrownBy(() -> broken.signatures(DIGEST))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("HTTP 500 from " + base);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void httpStoresAreReachedTheClustersWayAsTheUpdateGraphIs() throws Exception {
        TestCertificates ca = TestCertificates.authority("corporate-ca");
        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ca.server("sigs.upshift.test")));
        server.createContext(
                "/sigs/",
                x -> {
                    boolean first = x.getRequestURI().getPath().endsWith("/signature-1");
                    x.sendResponseHeaders(first ? 200 : 404, first ? 3 : -1);
                    if (first) x.getResponseBody().write("one".getBytes(UTF_8));
                    x.close();
                });
        server.start();
        try (LocalProxy proxy = LocalProxy.start()) {
            URI store =
                    URI.create(
                            "https://sigs.upshift.test:" + server.getAddress().getPort() + "/sigs");
            Egress egress = new Egress(ProxyRules.of("", proxy.url(), ""), ca.pem());
            assertThat(
                            new SignatureStores(HttpSignatureStore.defaultClient())
                                    .through(egress)
                                    .open(store)
                                    .signatures(DIGEST))
                    .extracting(b -> new String(b, StandardCharsets.UTF_8))
                    .containsExactly("one");
            assertThat(proxy.requests())
                    .containsOnly(
                            "CONNECT sigs.upshift.test:"
                                    + server.getAddress().getPort()
                                    + " HTTP/1.1");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void configMapStoreReadsLabelledBinaryData() throws Exception {
        String b64 = Base64.getEncoder().encodeToString("sig-a".getBytes(UTF_8));
        client.configMaps()
                .inNamespace(ConfigMapSignatureStore.NAMESPACE)
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName("release-4.15.2")
                                .withLabels(Map.of(ConfigMapSignatureStore.LABEL, ""))
                                .endMetadata()
                                .withBinaryData(
                                        Map.of(
                                                "sha256-" + HEX + "-2",
                                                Base64.getEncoder()
                                                        .encodeToString("sig-b".getBytes(UTF_8)),
                                                "sha256-" + HEX + "-1",
                                                b64,
                                                "sha256-" + "7".repeat(64) + "-1",
                                                b64))
                                .build())
                .create();
        client.configMaps()
                .inNamespace(ConfigMapSignatureStore.NAMESPACE)
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName("unlabelled")
                                .endMetadata()
                                .withBinaryData(Map.of("sha256-" + HEX + "-3", b64))
                                .build())
                .create();
        List<byte[]> sigs =
                new ConfigMapSignatureStore(client, ConfigMapSignatureStore.NAMESPACE)
                        .signatures(DIGEST);
        assertThat(sigs)
                .extracting(b -> new String(b, StandardCharsets.UTF_8))
                .containsExactly("sig-a", "sig-b");
    }

    @Test
    void verifiedSignaturesAreKeptOnceAndReadBackFromTheCluster() throws Exception {
        ConfigMapSignatureStore store =
                new ConfigMapSignatureStore(client, ConfigMapSignatureStore.NAMESPACE);
        String other = "sha256:" + "7".repeat(64);
        assertThat(store.keep(other, List.of("sig-other".getBytes(UTF_8)))).isTrue();
        assertThat(store.keep(DIGEST, List.of("sig-a".getBytes(UTF_8), "sig-b".getBytes(UTF_8))))
                .isTrue();
        assertThat(store.keep(DIGEST, List.of("sig-a".getBytes(UTF_8), "sig-b".getBytes(UTF_8))))
                .as("nothing written without a difference")
                .isFalse();
        var cm =
                client.configMaps()
                        .inNamespace(ConfigMapSignatureStore.NAMESPACE)
                        .withName(ConfigMapSignatureStore.MANAGED)
                        .get();
        assertThat(cm.getMetadata().getLabels()).containsKey(ConfigMapSignatureStore.LABEL);
        assertThat(cm.getBinaryData())
                .containsOnlyKeys(
                        "sha256-" + HEX + "-0",
                        "sha256-" + HEX + "-1",
                        "sha256-" + "7".repeat(64) + "-0");
        assertThat(store.signatures(DIGEST))
                .extracting(b -> new String(b, StandardCharsets.UTF_8))
                .containsExactly("sig-a", "sig-b");
        assertThat(store.signatures(other))
                .extracting(b -> new String(b, StandardCharsets.UTF_8))
                .containsExactly("sig-other");
    }
}
