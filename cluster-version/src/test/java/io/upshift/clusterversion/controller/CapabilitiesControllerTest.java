package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionCapabilitiesSpecBuilder;
import io.fabric8.openshift.api.model.config.v1.FeatureGate;
import io.fabric8.openshift.api.model.config.v1.FeatureGateBuilder;
import io.upshift.testkit.WithStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Capabilities an update enables implicitly stay enabled, and stay reported, across controller
 * restarts; those the controller always enables are implicitly enabled whatever the baseline; those
 * gated by feature gates exist only while the FeatureGate of the cluster's version enables a gate.
 */
@Tag("e2e")
class CapabilitiesControllerTest {

    @TempDir Path dir;

    private static String tuning(String capability) {
        return configMap("tuning", capability);
    }

    private static String configMap(String name, String capability) {
        return "apiVersion: v1\n"
                + "kind: ConfigMap\n"
                + "metadata:\n"
                + "  name: "
                + name
                + "\n"
                + "  namespace: test-ns\n"
                + "  annotations:\n"
                + FakePayloads.INCLUDED
                + (capability == null
                        ? ""
                        : "    capability.openshift.io/name: " + capability + "\n")
                + "data:\n  a: b\n";
    }

    @Test
    void anImplicitlyEnabledCapabilityIsReportedTheSameByARestartedController() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            h.editSpec(
                    spec ->
                            spec.setCapabilities(
                                    new ClusterVersionCapabilitiesSpecBuilder()
                                            .withBaselineCapabilitySet("None")
                                            .build()));
            String a = h.payloads.release("4.1.0", "4.1.0", true, tuning(null));
            // the next release puts the ConfigMap the cluster runs under a capability the spec does
            // not enable
            String b = h.payloads.release("4.1.1", "4.1.1", true, tuning("NodeTuning"));
            ControllerOptions options = ControllerHarness.options(a, dir.resolve("cache"));
            h.start(options);
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            assertThat(h.condition("ImplicitlyEnabledCapabilities").getStatus()).isEqualTo("False");

            h.requestUpdate("4.1.1", b, false);
            await("4.1.1 applied").atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.1"));
            ClusterOperatorStatusCondition implicit = h.condition("ImplicitlyEnabledCapabilities");
            assertThat(implicit.getStatus()).isEqualTo("True");
            assertThat(implicit.getReason()).isEqualTo("CapabilitiesImplicitlyEnabled");
            assertThat(implicit.getMessage())
                    .isEqualTo("The following capabilities could not be disabled: NodeTuning");
            assertThat(h.clusterVersion().getStatus().getCapabilities().getEnabledCapabilities())
                    .containsExactly("NodeTuning");

            // a new controller from the same cluster state: the same condition, not even rewritten
            h.controller.kill();
            h.controllerClient.close();
            h.start(options);
            await("a pass of the new controller")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.controller.passes() > 0);
            h.aPassWritten(); // any status write of a pass has landed
            assertThat(h.condition("ImplicitlyEnabledCapabilities")).isEqualTo(implicit);
            assertThat(h.clusterVersion().getStatus().getCapabilities().getEnabledCapabilities())
                    .containsExactly("NodeTuning");
        }
    }

    private static boolean exists(ControllerHarness h, String name) {
        return h.client.configMaps().inNamespace("test-ns").withName(name).get() != null;
    }

    private static void baseline(ControllerHarness h, String set, String... additional) {
        h.editSpec(
                spec ->
                        spec.setCapabilities(
                                new ClusterVersionCapabilitiesSpecBuilder()
                                        .withBaselineCapabilitySet(set)
                                        .withAdditionalEnabledCapabilities(additional)
                                        .build()));
    }

    @Test
    void anAlwaysEnabledCapabilityIsImplicitlyEnabledOnBaselineNone() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            baseline(h, "None");
            String a =
                    h.payloads.release(
                            "4.1.0",
                            "4.1.0",
                            true,
                            configMap("router", "Ingress"),
                            configMap("credentials", "CloudCredential+Ingress"));
            // as upstream's operator Deployment: --always-enable-capabilities=Ingress
            h.start(
                    ControllerHarness.options(a, dir.resolve("cache"))
                            .withAlwaysEnabledCapabilities(Set.of("Ingress")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            assertThat(exists(h, "router")).isTrue();
            assertThat(exists(h, "credentials")).as("CloudCredential stays disabled").isFalse();
            var caps = h.clusterVersion().getStatus().getCapabilities();
            assertThat(caps.getEnabledCapabilities()).containsExactly("Ingress");
            assertThat(caps.getKnownCapabilities())
                    .hasSize(17)
                    .contains("Ingress")
                    .doesNotContain("ClusterAPI", "CompatibilityRequirements");
            ClusterOperatorStatusCondition implicit = h.condition("ImplicitlyEnabledCapabilities");
            assertThat(implicit.getStatus()).isEqualTo("True");
            assertThat(implicit.getReason()).isEqualTo("CapabilitiesImplicitlyEnabled");
            assertThat(implicit.getMessage())
                    .isEqualTo("The following capabilities could not be disabled: Ingress");

            // asked for by the spec, it is no longer implicit
            baseline(h, "None", "Ingress");
            await("as configured")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> h.condition("ImplicitlyEnabledCapabilities"),
                            c -> "False".equals(c.getStatus()));
            assertThat(h.condition("ImplicitlyEnabledCapabilities").getReason())
                    .isEqualTo("AsExpected");
            assertThat(h.condition("ImplicitlyEnabledCapabilities").getMessage())
                    .isEqualTo("Capabilities match configured spec");
        }
    }

    @Test
    void aGatedCapabilityExistsOnlyWhileTheFeatureGateOfTheClustersVersionEnablesIt()
            throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a =
                    h.payloads.release("4.1.0", "4.1.0", true, configMap("machines", "ClusterAPI"));
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            // vCurrent, but no FeatureGate: ClusterAPI is not a capability this cluster knows
            assertThat(exists(h, "machines")).isFalse();
            assertThat(h.clusterVersion().getStatus().getCapabilities().getKnownCapabilities())
                    .doesNotContain("ClusterAPI", "CompatibilityRequirements");

            // created, then its status written, as OpenShift's config operator does
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
                            .withVersion("4.0.9")
                            .addNewEnabled()
                            .withName("ClusterAPIMachineManagement")
                            .endEnabled()
                            .endFeatureGate()
                            .addNewFeatureGate()
                            .withVersion("4.1.0")
                            .addNewEnabled()
                            .withName("CRDCompatibilityRequirementOperator")
                            .endEnabled()
                            .endFeatureGate()
                            .endStatus()
                            .build());
            // the gates of 4.1.0, not those of another version
            await("CompatibilityRequirements known")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.clusterVersion()
                                            .getStatus()
                                            .getCapabilities()
                                            .getKnownCapabilities()
                                            .contains("CompatibilityRequirements"));
            assertThat(h.clusterVersion().getStatus().getCapabilities().getEnabledCapabilities())
                    .contains("CompatibilityRequirements")
                    .doesNotContain("ClusterAPI");
            assertThat(exists(h, "machines")).isFalse();

            h.client
                    .resources(FeatureGate.class)
                    .withName("cluster")
                    .editStatus(
                            g -> {
                                g.getStatus()
                                        .getFeatureGates()
                                        .get(1)
                                        .getEnabled()
                                        .get(0)
                                        .setName("ClusterAPIMachineManagement");
                                return g;
                            });
            await("the ClusterAPI manifest applied")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> exists(h, "machines"));
            assertThat(h.clusterVersion().getStatus().getCapabilities().getEnabledCapabilities())
                    .contains("ClusterAPI", "CompatibilityRequirements");
        }
    }
}
