package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.base.proxy.ClusterProxy;
import io.upshift.clusterversion.model.UnreadableConfig;
import io.upshift.testkit.RefusingApiServer;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cluster-version controller's caches on a cluster without OpenShift's config kinds, or whose
 * account may not read them: they fill, and the controller works without them; only a refused kind
 * is named for ClusterVersion.
 */
@Tag("e2e")
class ClusterCachesTest {

    @Test
    void aPlainClusterWithoutTheConfigKindsStartsAndARefusedOneIsNamed() {
        try (RefusingApiServer server =
                        new RefusingApiServer()
                                .refuse("/apis/config.openshift.io/v1/featuregates", 403)
                                .refuse("/apis/config.openshift.io/v1/proxies", 404);
                ClusterCaches caches = new ClusterCaches(server.client, () -> {}, () -> {})) {
            caches.start();
            assertThat(caches.featureGate()).isNull(); // the default feature set
            assertThat(caches.clusterProxy()).isEqualTo(ClusterProxy.NONE);
            List<UnreadableConfig> unreadable = caches.unreadable();
            assertThat(unreadable)
                    .extracting(UnreadableConfig::resource)
                    .containsExactly("featuregates.config.openshift.io");
            assertThat(UnreadableConfig.message(unreadable))
                    .isEqualTo(
                            "featuregates.config.openshift.io is forbidden (HTTP 403: featuregates"
                                + " is forbidden: User \"system:serviceaccount:upshift:upshift\""
                                + " cannot list resource \"featuregates\" at the cluster scope);"
                                + " working without it: the default feature set (no"
                                + " TechPreviewNoUpgrade or CustomNoUpgrade manifests)");
        }
    }

    @Test
    void aProxyThatMayNotBeReadLeavesTheWayOutUnknown() {
        try (RefusingApiServer server =
                        new RefusingApiServer()
                                .refuse("/apis/config.openshift.io/v1/featuregates", 404)
                                .refuse("/apis/config.openshift.io/v1/proxies", 403);
                ClusterCaches caches = new ClusterCaches(server.client, () -> {}, () -> {})) {
            caches.start();
            assertThatThrownBy(() -> caches.egress().knownProxy())
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith("cannot read proxies.config.openshift.io (HTTP 403")
                    .hasMessageEndingWith("and requests would bypass the cluster's proxy");
            assertThatThrownBy(() -> caches.egress().httpClient(Duration.ofSeconds(1)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("proxies.config.openshift.io");
        }
    }
}
