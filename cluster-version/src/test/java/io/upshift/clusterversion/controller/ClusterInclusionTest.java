package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.openshift.api.model.config.v1.FeatureGate;
import io.fabric8.openshift.api.model.config.v1.FeatureGateBuilder;
import io.upshift.testkit.WithStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which of a payload's manifests the controller applies is the cluster's: the profile and exclude
 * id it is configured with, the feature set and the feature gates of the FeatureGate {@code
 * cluster} (the payload's own FeatureGate manifest when the cluster's lists none for the release).
 */
@Tag("e2e")
class ClusterInclusionTest {

    @TempDir Path dir;

    private static String configMap(String name, String... annotations) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                + name
                + "\n  namespace: test-ns\n  annotations:\n"
                + String.join("", Arrays.stream(annotations).map(a -> "    " + a + "\n").toList())
                + "data:\n  a: b\n";
    }

    private static final String HA =
            "include.release.openshift.io/self-managed-high-availability: \"true\"";
    private static final String SNO =
            "include.release.openshift.io/single-node-developer: \"true\"";

    /** As openshift/api ships it: the gates a feature set enables, never applied itself. */
    private static final String PAYLOAD_FEATURE_GATE =
            "apiVersion: config.openshift.io/v1\n"
                    + "kind: FeatureGate\n"
                    + "metadata:\n"
                    + "  name: cluster\n"
                    + "  annotations:\n"
                    + "    include.release.openshift.io/self-managed-high-availability:"
                    + " false-except-for-the-config-operator\n"
                    + "spec: {}\n"
                    + "status:\n"
                    + "  featureGates:\n"
                    + "  - version: \"\"\n"
                    + "    enabled:\n"
                    + "    - name: NewThing\n"
                    + "    disabled:\n"
                    + "    - name: OldThing\n";

    private String release(ControllerHarness h) {
        return h.payloads.release(
                "4.1.0",
                "4.1.0",
                true,
                configMap("preview", HA, "release.openshift.io/feature-set: TechPreviewNoUpgrade"),
                configMap("gated", HA, "release.openshift.io/feature-gate: NewThing"),
                configMap("sno-only", SNO),
                configMap(
                        "hosted",
                        HA,
                        SNO,
                        "exclude.release.openshift.io/internal-openshift-hosted: \"true\""),
                PAYLOAD_FEATURE_GATE);
    }

    /**
     * The test namespace for {@code profile} too: the release's own is for HA alone, and a real API
     * server creates nothing in a namespace that is not there.
     */
    private static String namespace(String profile) {
        return "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: test-ns\n  annotations:\n    "
                + profile
                + "\n";
    }

    private static boolean exists(ControllerHarness h, String name) {
        return h.client.configMaps().inNamespace("test-ns").withName(name).get() != null;
    }

    @Test
    void theFeatureSetAndGatesOfTheClusterDecideAndAChangeIsApplied() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a = release(h);
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            // no FeatureGate yet: the payload's own declaration enables NewThing; Default feature
            // set; HA profile
            assertThat(exists(h, "gated")).isTrue();
            assertThat(exists(h, "hosted")).isTrue();
            assertThat(exists(h, "preview")).isFalse();
            assertThat(exists(h, "sno-only")).isFalse();
            assertThat(h.client.resources(FeatureGate.class).withName("cluster").get())
                    .as("never applied")
                    .isNull();

            WithStatus.create(
                    h.client,
                    new FeatureGateBuilder()
                            .withNewMetadata()
                            .withName("cluster")
                            .endMetadata()
                            .withNewSpec()
                            .withFeatureSet("TechPreviewNoUpgrade")
                            .endSpec()
                            .withNewStatus()
                            .addNewFeatureGate()
                            .withVersion("4.1.0")
                            .endFeatureGate()
                            .endStatus()
                            .build());
            await("the tech-preview manifest applied")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> exists(h, "preview"));
            assertThat(h.condition("ReleaseAccepted").getStatus()).isEqualTo("True");
        }
    }

    @Test
    void theConfiguredProfileAndExcludeIdDecide() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a =
                    h.payloads.release(
                            "4.1.0",
                            "4.1.0",
                            true,
                            namespace(SNO),
                            configMap("sno-only", SNO),
                            configMap(
                                    "hosted",
                                    SNO,
                                    "exclude.release.openshift.io/internal-openshift-hosted:"
                                            + " \"true\""));
            // the release's own manifests are for HA only: with the single-node profile, only the
            // extra ones apply
            h.start(
                    ControllerHarness.options(a, dir.resolve("cache"))
                            .withInclusion("single-node-developer", "internal-openshift-hosted"));
            await("sno-only applied")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> exists(h, "sno-only"));
            assertThat(exists(h, "hosted")).isFalse();
            assertThat(h.client.configMaps().inNamespace("test-ns").withName("settings").get())
                    .isNull();
        }
    }
}
