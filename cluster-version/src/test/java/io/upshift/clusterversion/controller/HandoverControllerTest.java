package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Completed means level: a release whose payload carries the controller's own Deployment (running
 * the release image) is Completed by the controller that runs it, once it has taken over, never by
 * the outgoing one, even where the outgoing one sees its successor's Deployment rolled out (a
 * RollingUpdate starts the next pod while the old one still leads); and nothing the staying
 * controller writes comes after it says Completed.
 */
@Tag("e2e")
class HandoverControllerTest {
    /**
     * The controller's Deployment, running {@code image} (payloads under release-manifests/ are not
     * templated).
     */
    private static String controller(String image) {
        return CONTROLLER.replace("{{.ReleaseImage}}", image);
    }

    private static final String CONTROLLER =
            "apiVersion: apps/v1\n"
                    + "kind: Deployment\n"
                    + "metadata:\n"
                    + "  name: cluster-version-operator\n"
                    + "  namespace: openshift-cluster-version\n"
                    + "  annotations:\n"
                    + FakePayloads.INCLUDED
                    + "spec:\n"
                    + "  replicas: 1\n"
                    + "  selector: {matchLabels: {app: cvo}}\n"
                    + "  template:\n"
                    + "    metadata: {labels: {app: cvo}}\n"
                    + "    spec:\n"
                    + "      containers:\n"
                    + "      - name: controller\n"
                    + "        image: '{{.ReleaseImage}}'\n"
                    + "        args: [operator, --release, '{{.ReleaseImage}}']\n";

    private static final String NAMESPACE =
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openshift-cluster-version\n"
                    + "  annotations:\n"
                    + FakePayloads.INCLUDED;

    @TempDir Path dir;

    @Test
    void theOutgoingControllerLeavesCompletedToTheReleasesOwn() throws Exception {
        try (ControllerHarness h = ControllerHarness.onEmbeddedServer(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true, files("4.1.0"));
            String b = h.payloads.release("4.1.1", "4.1.1", true, files("4.1.1"));
            ControllerOptions options = ControllerHarness.options(a, dir.resolve("cache"));
            h.start(options);
            rollOut(h, a); // the Deployment controller's part, as its pod becomes available
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));

            // the outgoing controller applies 4.1.1, its successor's Deployment among it, and
            // sees it rolled out while it still leads
            h.requestUpdate("4.1.1", b, false);
            rollOut(h, b);
            await("every manifest of 4.1.1 applied, the operator at 4.1.1")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> h.condition("Progressing").getMessage(),
                            m -> m.startsWith("Working towards 4.1.1: 5 of 5 done"));
            h.passesWritten(2);
            UpdateHistory top = h.clusterVersion().getStatus().getHistory().get(0);
            assertThat(top.getImage()).isEqualTo(b);
            assertThat(top.getState())
                    .as("the outgoing controller does not say Completed")
                    .isEqualTo("Partial");

            // the release's own controller takes over, and says it
            h.controller.kill();
            h.controllerClient.close();
            h.start(ControllerHarness.options(b, dir.resolve("cache")));
            await("4.1.1 Completed by the release's own controller")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.1"));
            // the ClusterVersion as it was when it first said Completed: the last write to it
            String resourceVersion = h.clusterVersion().getMetadata().getResourceVersion();
            h.aPassWritten(); // (the count of the write that said Completed has caught up)
            long writes = h.controller.writes();
            h.passesWritten(2);
            assertThat(h.clusterVersion().getMetadata().getResourceVersion())
                    .as("the ClusterVersion written after it said Completed (annotations included)")
                    .isEqualTo(resourceVersion);
            assertThat(h.controller.writes()).as("writes after Completed").isEqualTo(writes);
        }
    }

    private static Map<String, String> files(String version) {
        return Map.of(
                "0000_00_cluster-version-operator_00_namespace.yaml",
                NAMESPACE,
                "0000_00_cluster-version-operator_03_deployment.yaml",
                controller(FakePayloads.image(version)));
    }

    /** The Deployment's status says it runs {@code image}, rolled out and available. */
    private static void rollOut(ControllerHarness h, String image) {
        await("the controller's Deployment running " + image)
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> {
                            Deployment d = controllerDeployment(h);
                            return d != null
                                    && image.equals(
                                            d.getSpec()
                                                    .getTemplate()
                                                    .getSpec()
                                                    .getContainers()
                                                    .get(0)
                                                    .getImage());
                        });
        Deployment d = controllerDeployment(h);
        d.setStatus(
                new DeploymentStatusBuilder()
                        .withObservedGeneration(d.getMetadata().getGeneration())
                        .withReplicas(1)
                        .withUpdatedReplicas(1)
                        .withReadyReplicas(1)
                        .withAvailableReplicas(1)
                        .build());
        h.client
                .apps()
                .deployments()
                .inNamespace("openshift-cluster-version")
                .resource(d)
                .updateStatus();
    }

    private static Deployment controllerDeployment(ControllerHarness h) {
        return h.client
                .apps()
                .deployments()
                .inNamespace("openshift-cluster-version")
                .withName("cluster-version-operator")
                .get();
    }
}
