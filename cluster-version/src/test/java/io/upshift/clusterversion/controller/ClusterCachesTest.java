package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.base.proxy.ClusterProxy;
import io.upshift.clusterversion.model.UnreadableConfig;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.ServiceAccount;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cluster-version controller's caches on a cluster without OpenShift's config kinds (no CRD: a
 * real 404), or whose account may not read them (RBAC: a real 403): they fill, and the controller
 * works without them; only a refused kind is named for ClusterVersion.
 */
@Tag("e2e")
class ClusterCachesTest {
    static final ServiceAccount NARROW = ServiceAccount.of("openshift-cluster-version", "narrow");

    /**
     * An account that may read everything the controller reads but one OpenShift config kind: every
     * group's every resource, and of config.openshift.io's only those named.
     */
    static KubernetesClient narrow(ApiServer server, String... configResources) {
        KubernetesClient admin = server.client();
        admin.serviceAccounts()
                .inNamespace(NARROW.namespace())
                .resource(
                        new ServiceAccountBuilder()
                                .withNewMetadata()
                                .withName(NARROW.name())
                                .endMetadata()
                                .build())
                .create();
        admin.rbac()
                .clusterRoles()
                .resource(
                        new ClusterRoleBuilder()
                                .withNewMetadata()
                                .withName("narrow")
                                .endMetadata()
                                .addNewRule()
                                .withApiGroups("", "apiextensions.k8s.io", "coordination.k8s.io")
                                .withResources("*")
                                .withVerbs("get", "list", "watch")
                                .endRule()
                                .addNewRule()
                                .withApiGroups("config.openshift.io")
                                .withResources(configResources)
                                .withVerbs("get", "list", "watch")
                                .endRule()
                                .build())
                .create();
        admin.rbac()
                .clusterRoleBindings()
                .resource(
                        new ClusterRoleBindingBuilder()
                                .withNewMetadata()
                                .withName("narrow")
                                .endMetadata()
                                .withNewRoleRef(
                                        "rbac.authorization.k8s.io", "ClusterRole", "narrow")
                                .addNewSubject()
                                .withKind("ServiceAccount")
                                .withNamespace(NARROW.namespace())
                                .withName(NARROW.name())
                                .endSubject()
                                .build())
                .create();
        return server.client("upshift-cluster-version", NARROW);
    }

    @Test
    void aPlainClusterWithoutTheConfigKindsStartsAndARefusedOneIsNamed() {
        // FeatureGates served but not readable by the account; no Proxy kind at all
        try (ApiServer server =
                        ApiServers.start(
                                        "clusterversions.config.openshift.io",
                                        "clusteroperators.config.openshift.io",
                                        "featuregates.config.openshift.io")
                                .installRbac();
                KubernetesClient client =
                        narrow(server, "clusterversions", "clusteroperators", "proxies");
                ClusterCaches caches = new ClusterCaches(client, () -> {}, () -> {})) {
            caches.start();
            assertThat(caches.featureGate()).isNull(); // the default feature set
            assertThat(caches.clusterProxy()).isEqualTo(ClusterProxy.NONE);
            List<UnreadableConfig> unreadable = caches.unreadable();
            assertThat(unreadable)
                    .extracting(UnreadableConfig::resource)
                    .containsExactly("featuregates.config.openshift.io");
            assertThat(UnreadableConfig.message(unreadable))
                    .isEqualTo(
                            "featuregates.config.openshift.io is forbidden (HTTP 403:"
                                + " featuregates.config.openshift.io \"cluster\" is forbidden: User"
                                + " \"system:serviceaccount:openshift-cluster-version:narrow\""
                                + " cannot list resource \"featuregates\" in API group"
                                + " \"config.openshift.io\" at the cluster scope); working without"
                                + " it: the default feature set (no TechPreviewNoUpgrade or"
                                + " CustomNoUpgrade manifests)");
        }
    }

    @Test
    void aProxyThatMayNotBeReadLeavesTheWayOutUnknown() {
        // Proxies served but not readable by the account; no FeatureGate kind at all
        try (ApiServer server =
                        ApiServers.start(
                                        "clusterversions.config.openshift.io",
                                        "clusteroperators.config.openshift.io",
                                        "proxies.config.openshift.io")
                                .installRbac();
                KubernetesClient client =
                        narrow(server, "clusterversions", "clusteroperators", "featuregates");
                ClusterCaches caches = new ClusterCaches(client, () -> {}, () -> {})) {
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
