package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.base.proxy.ClusterProxy;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.taskgraph.Mode;
import io.upshift.runtime.kube.Changes;
import io.upshift.testkit.EmbeddedApiServer;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * No write loop where the server keeps a manifest otherwise than written: an older API server that
 * drops a field it does not know, played by the embedded server ({@code dropOnWrite}).
 */
@Tag("e2e")
class ManifestApplierOlderServerTest {
    final EmbeddedApiServer server = new EmbeddedApiServer();
    final KubernetesClient client = server.client();
    final LiveCache cache = new LiveCache(client, new Changes());
    final ManifestApplier applier = new ManifestApplier(client, cache, () -> ClusterProxy.NONE);

    @AfterEach
    void tearDown() {
        cache.close();
        server.close();
    }

    static Manifest manifest(String yaml) throws Exception {
        return ManifestApplierTest.manifest(yaml);
    }

    static final String CRD = ManifestApplierTest.CRD;

    ManifestApplier.Outcome applyAndSettle(Manifest m) {
        ManifestApplier.Outcome o = applier.apply(m, Mode.UPDATING).outcome();
        settle(m);
        return o;
    }

    void settle(Manifest m) {
        await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> {
                            GenericKubernetesResource live = LiveObjects.of(client, m).get();
                            GenericKubernetesResource cached = cache.get(m);
                            return live == null
                                    ? cached == null
                                    : cached != null
                                            && Objects.equals(
                                                    live.getMetadata().getResourceVersion(),
                                                    cached.getMetadata().getResourceVersion());
                        });
    }

    @Test
    void whereTheServerKeepsAManifestOtherwiseThanWrittenItIsWrittenOnceNotAtEveryStart()
            throws Exception {
        server.dispatcher()
                .dropOnWrite(
                        "CustomResourceDefinition",
                        "x-kubernetes-validations"); // as a v1.24 API server
        Manifest crd = manifest(CRD);
        assertThat(applyAndSettle(crd)).isEqualTo(ManifestApplier.Outcome.CREATED);
        assertThat(applyAndSettle(crd)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);
        long writes = applier.writes.get();
        // a restarted controller: new caches, no memory
        try (LiveCache fresh = new LiveCache(client, new Changes())) {
            ManifestApplier restarted = new ManifestApplier(client, fresh, () -> ClusterProxy.NONE);
            assertThat(restarted.apply(crd, Mode.RECONCILING).outcome())
                    .isEqualTo(ManifestApplier.Outcome.UNCHANGED);
            assertThat(restarted.writes.get()).isZero();
        }
        // someone changes what the manifest sets: the mark no longer holds, the manifest's value
        // comes back
        GenericKubernetesResource live = LiveObjects.of(client, crd).get();
        ((Map<String, Object>) live.getAdditionalProperties().get("spec"))
                .put("scope", "Namespaced");
        LiveObjects.of(client, crd, live).update();
        settle(crd);
        assertThat(applyAndSettle(crd)).isEqualTo(ManifestApplier.Outcome.UPDATED);
        assertThat(
                        ((Map<?, ?>)
                                        LiveObjects.of(client, crd)
                                                .get()
                                                .getAdditionalProperties()
                                                .get("spec"))
                                .get("scope"))
                .isEqualTo("Cluster");
        assertThat(applier.writes.get()).isGreaterThan(writes);
    }
}
