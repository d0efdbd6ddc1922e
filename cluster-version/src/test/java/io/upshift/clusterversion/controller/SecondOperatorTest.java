package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A release whose payload would start a cluster-version operator beside the cluster's own (here
 * Upshift's Deployment under its old names, as a release built before the rename carries it) is
 * refused at acceptance, naming the manifest, and nothing of it is applied.
 */
@Tag("e2e")
class SecondOperatorTest {
    static final String LEGACY_CONTROLLER =
            "apiVersion: apps/v1\n"
                    + "kind: Deployment\n"
                    + "metadata:\n"
                    + "  name: upshift-controller\n"
                    + "  namespace: upshift\n"
                    + "  annotations:\n"
                    + FakePayloads.INCLUDED
                    + "spec:\n"
                    + "  selector: {matchLabels: {app: upshift}}\n"
                    + "  template:\n"
                    + "    metadata: {labels: {app: upshift}}\n"
                    + "    spec:\n"
                    + "      containers:\n"
                    + "      - name: controller\n"
                    + "        image: '{{.ReleaseImage}}'\n"
                    + "        args: [operator, --release, '{{.ReleaseImage}}']\n";

    @TempDir Path dir;

    @Test
    void aReleaseCarryingASecondOperatorIsRefusedNamingItsManifest() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String b = h.payloads.release("4.1.1", "4.1.1", true, LEGACY_CONTROLLER);
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));

            h.requestUpdate("4.1.1", b, false);
            ClusterOperatorStatusCondition refused =
                    await().atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> h.condition("ReleaseAccepted"),
                                    c -> "False".equals(c.getStatus()));
            assertThat(refused.getReason()).isEqualTo("LoadPayload");
            assertThat(refused.getMessage())
                    .contains("version=\"4.1.1\"")
                    .contains(
                            "manifests/0000_20_extra_00.yaml (line 1): the Deployment"
                                    + " upshift/upshift-controller would be a second"
                                    + " cluster-version operator (it is named as a"
                                    + " cluster-version operator): two operators would write"
                                    + " ClusterVersion. A release runs one, the Deployment"
                                    + " openshift-cluster-version/cluster-version-operator");
            assertThat(h.client.apps().deployments().inNamespace("upshift").list().getItems())
                    .as("nothing of the refused release is applied")
                    .isEmpty();
            assertThat(h.completed("4.1.1")).isFalse();
        }
    }
}
