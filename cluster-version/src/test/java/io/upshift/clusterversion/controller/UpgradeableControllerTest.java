package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upgradeable as the controller keeps it: from the admin gate and ack ConfigMaps, watched (a change
 * shows within seconds, without a pass), and from the deletions it requested that are still in
 * progress; and a minor update refused while the cluster is not upgradeable.
 */
@Tag("e2e")
class UpgradeableControllerTest {
    static final String GATE = "ack-4.1-removed-apis-in-4.2";

    @TempDir Path dir;

    private static void configMap(
            ControllerHarness h, String namespace, String name, Map<String, String> data) {
        if (h.client.namespaces().withName(namespace).get() == null) {
            h.client
                    .namespaces()
                    .resource(
                            new NamespaceBuilder()
                                    .withNewMetadata()
                                    .withName(namespace)
                                    .endMetadata()
                                    .build())
                    .create();
        }
        h.client
                .configMaps()
                .inNamespace(namespace)
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .withNamespace(namespace)
                                .endMetadata()
                                .withData(data)
                                .build())
                .createOr(c -> c.update());
    }

    private static ClusterOperatorStatusCondition upgradeable(ControllerHarness h) {
        return h.condition("Upgradeable");
    }

    @Test
    void adminGatesHoldTheClusterUntilAcknowledgedAndRefuseAMinorUpdate() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String next = h.payloads.release("4.2.0", "4.2.0", true);
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            // as upstream's: without the ConfigMaps the check cannot be made, and that holds the
            // cluster
            await("gates unreadable")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    upgradeable(h) != null
                                            && "UnableToAccessAdminGatesConfigMap"
                                                    .equals(upgradeable(h).getReason()));
            assertThat(upgradeable(h).getMessage()).isEqualTo("admin-gates configmap not found.");

            configMap(
                    h,
                    "openshift-config-managed",
                    "admin-gates",
                    Map.of(GATE, "APIs removed in 4.2 must not be in use."));
            configMap(h, "openshift-config", "admin-acks", Map.of());
            ClusterOperatorStatusCondition held =
                    await("the gate holds")
                            .atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> upgradeable(h),
                                    c -> c != null && "AdminAckRequired".equals(c.getReason()));
            assertThat(held.getStatus()).isEqualTo("False");
            assertThat(held.getMessage()).isEqualTo("APIs removed in 4.2 must not be in use.");

            h.requestUpdate("4.2.0", next, false);
            ClusterOperatorStatusCondition refused =
                    await("the minor update refused")
                            .atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> h.condition("ReleaseAccepted"),
                                    c -> c != null && "False".equals(c.getStatus()));
            assertThat(refused.getReason()).isEqualTo("PreconditionChecks");
            assertThat(refused.getMessage())
                    .contains(
                            "Precondition \"ClusterVersionUpgradeable\" failed because of"
                                + " \"AdminAckRequired\": APIs removed in 4.2 must not be in use.");

            configMap(h, "openshift-config", "admin-acks", Map.of(GATE, "true"));
            await("acknowledged: no Upgradeable condition")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> {
                                ClusterOperatorStatusCondition now = upgradeable(h);
                                return now == null || "UpdateInProgress".equals(now.getReason());
                            });
            await("then the update accepted")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.2.0"));
        }
    }

    @Test
    void aDeletionInProgressHoldsTheClusterUntilItsObjectIsGone() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            configMap(h, "openshift-config-managed", "admin-gates", Map.of());
            configMap(h, "openshift-config", "admin-acks", Map.of());
            String old =
                    "apiVersion: v1\n"
                            + "kind: ConfigMap\n"
                            + "metadata:\n"
                            + "  name: old\n"
                            + "  namespace: test-ns\n"
                            + "  annotations:\n"
                            + FakePayloads.INCLUDED
                            + "data:\n  a: b\n";
            String a = h.payloads.release("4.1.0", "4.1.0", true, old);
            String b =
                    h.payloads.release(
                            "4.1.1",
                            "4.1.1",
                            true,
                            old.replace(
                                    "  annotations:\n",
                                    "  annotations:\n    release.openshift.io/delete: \"true\"\n"));
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            // something else holds the object: its deletion waits for the finalizer to go
            h.client
                    .configMaps()
                    .inNamespace("test-ns")
                    .withName("old")
                    .edit(
                            c -> {
                                c.getMetadata().setFinalizers(List.of("example.com/hold"));
                                return c;
                            });
            assertThat(upgradeable(h)).isNull();

            h.requestUpdate("4.1.1", b, false);
            await("4.1.1 applied").atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.1"));
            ConfigMap held = h.client.configMaps().inNamespace("test-ns").withName("old").get();
            assertThat(held.getMetadata().getDeletionTimestamp()).isNotNull();
            ClusterOperatorStatusCondition deleting =
                    await("deletion in progress")
                            .atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> upgradeable(h),
                                    c ->
                                            c != null
                                                    && "ResourceDeletesInProgress"
                                                            .equals(c.getReason()));
            assertThat(deleting.getMessage())
                    .isEqualTo(
                            "Cluster minor level upgrades are not allowed while resource deletions"
                                    + " are in progress; resources=configmap \"test-ns/old\"");

            h.client
                    .configMaps()
                    .inNamespace("test-ns")
                    .withName("old")
                    .edit(
                            c -> {
                                c.getMetadata().setFinalizers(List.of());
                                return c;
                            });
            await("deleted: upgradeable again")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> upgradeable(h) == null);
        }
    }
}
