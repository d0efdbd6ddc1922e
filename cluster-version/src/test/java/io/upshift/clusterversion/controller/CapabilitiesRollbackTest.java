package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionCapabilitiesSpecBuilder;
import io.upshift.api.json.Mappers;
import io.upshift.clusterversion.model.KeptCapabilities;
import io.upshift.testkit.EmbeddedApiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rollback of the ClusterVersion CRD that used to disable capabilities: OpenShift 4.14's CRD,
 * MachineAPI and Build enabled though the spec no longer asks for them, OpenShift 4.13's CRD
 * installed (its status enumerates neither), a controller restart, a release with manifests gated
 * on them, then the 4.14 CRD back. The API server validates every status write against the CRD
 * installed at the time (kube-apiserver does; the embedded one is asked to). Skipped without the
 * shared fixtures.
 */
@Tag("e2e")
class CapabilitiesRollbackTest {

    private static final Path CRDS =
            Path.of(System.getProperty("upshift.fixtures", "../../shared/fixtures"), "crds");
    private static final String FILE =
            "0000_00_cluster-version-operator_01_clusterversion.crd.yaml";

    @TempDir Path dir;

    private static String gated(String name, String capability) {
        return "apiVersion: v1\n"
                + "kind: ConfigMap\n"
                + "metadata:\n"
                + "  name: "
                + name
                + "\n"
                + "  namespace: test-ns\n"
                + "  annotations:\n"
                + FakePayloads.INCLUDED
                + "    capability.openshift.io/name: "
                + capability
                + "\n"
                + "data:\n  a: b\n";
    }

    /** Installs the ClusterVersion CRD of {@code release}, in place of the one installed. */
    private static void installCrd(ControllerHarness h, String release) throws IOException {
        CustomResourceDefinition crd =
                Mappers.YAML.readValue(
                        Files.readString(CRDS.resolve(release).resolve(FILE)),
                        CustomResourceDefinition.class);
        var crds = h.client.apiextensions().v1().customResourceDefinitions();
        CustomResourceDefinition installed = crds.withName(crd.getMetadata().getName()).get();
        if (installed == null) {
            crds.resource(crd).create();
        } else {
            crd.getMetadata().setResourceVersion(installed.getMetadata().getResourceVersion());
            crds.resource(crd).update();
        }
    }

    private static boolean exists(ControllerHarness h, String name) {
        return h.client.configMaps().inNamespace("test-ns").withName(name).get() != null;
    }

    private static List<String> enabled(ControllerHarness h) {
        var caps = h.clusterVersion().getStatus().getCapabilities();
        return caps == null || caps.getEnabledCapabilities() == null
                ? List.of()
                : caps.getEnabledCapabilities();
    }

    private static String annotation(ControllerHarness h) {
        Map<String, String> a = h.clusterVersion().getMetadata().getAnnotations();
        return a == null ? null : a.get(KeptCapabilities.ANNOTATION);
    }

    @Test
    void aCrdRollbackDisablesNoCapabilityAndTheirManifestsStillApply() throws Exception {
        Assumptions.assumeTrue(
                Files.exists(CRDS.resolve("release-4.13").resolve(FILE))
                        && Files.exists(CRDS.resolve("release-4.14").resolve(FILE)),
                "shared fixtures not present");
        try (ControllerHarness h = new ControllerHarness(dir)) {
            // a real server validates each write against the CRD installed at the time; the
            // embedded one does once asked
            if (h.server instanceof EmbeddedApiServer embedded)
                embedded.dispatcher().validateStatusAgainstCrds();
            installCrd(h, "release-4.14");
            h.editSpec(
                    spec ->
                            spec.setCapabilities(
                                    new ClusterVersionCapabilitiesSpecBuilder()
                                            .withBaselineCapabilitySet("None")
                                            .withAdditionalEnabledCapabilities(
                                                    "MachineAPI", "Build")
                                            .build()));
            String a =
                    h.payloads.release(
                            "4.1.0",
                            "4.1.0",
                            true,
                            gated("machines", "MachineAPI"),
                            gated("builds", "Build"),
                            gated("registry", "ImageRegistry"));
            String b =
                    h.payloads.release(
                            "4.1.1",
                            "4.1.1",
                            true,
                            gated("machines", "MachineAPI"),
                            gated("builds", "Build"),
                            gated("builds-next", "Build"),
                            gated("machines-next", "MachineAPI"),
                            gated("registry", "ImageRegistry"));
            ControllerOptions options = ControllerHarness.options(a, dir.resolve("cache"));
            h.start(options);
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            assertThat(enabled(h)).containsExactly("Build", "MachineAPI");
            assertThat(exists(h, "builds")).isTrue();
            assertThat(exists(h, "registry")).isFalse();
            assertThat(annotation(h)).as("the 4.14 CRD holds every enabled name").isNull();

            // the spec no longer asks for them: they stay enabled, as upstream's
            h.editSpec(spec -> spec.getCapabilities().setAdditionalEnabledCapabilities(List.of()));
            await("implicitly enabled")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> h.condition("ImplicitlyEnabledCapabilities").getMessage(),
                            m ->
                                    m.equals(
                                            "The following capabilities could not be disabled:"
                                                    + " Build, MachineAPI"));

            // the rollback of the CRD: its status enumerates neither
            installCrd(h, "release-4.13");
            await("the names the 4.13 CRD cannot hold left out and named")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> enabled(h).isEmpty());
            ClusterOperatorStatusCondition reported = h.condition("CapabilitiesReported");
            assertThat(reported.getStatus()).isEqualTo("False");
            assertThat(reported.getReason()).isEqualTo("RejectedByInstalledCRD");
            assertThat(reported.getMessage())
                    .contains("Build, ")
                    .contains("MachineAPI")
                    .contains(
                            "Build, MachineAPI stay enabled, kept in the annotation "
                                    + KeptCapabilities.ANNOTATION);
            assertThat(annotation(h)).isEqualTo("Build,MachineAPI");
            assertThat(h.condition("ImplicitlyEnabledCapabilities").getMessage())
                    .isEqualTo(
                            "The following capabilities could not be disabled: Build, MachineAPI");

            // a restarted controller finds them in the annotation
            h.controller.kill();
            h.controllerClient.close();
            h.start(options);

            h.requestUpdate("4.1.1", b, false);
            await("4.1.1 applied under the 4.13 CRD")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.1"));
            assertThat(exists(h, "builds-next")).as("a Build-gated manifest of 4.1.1").isTrue();
            assertThat(exists(h, "machines-next")).as("a MachineAPI-gated one").isTrue();
            assertThat(exists(h, "registry")).as("ImageRegistry was never enabled").isFalse();
            assertThat(h.condition("ImplicitlyEnabledCapabilities").getMessage())
                    .isEqualTo(
                            "The following capabilities could not be disabled: Build, MachineAPI");

            // the newer CRD back: status holds them again
            installCrd(h, "release-4.14");
            await("status lists them again")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> enabled(h).equals(List.of("Build", "MachineAPI")));
            assertThat(annotation(h)).isEqualTo("Build,MachineAPI");
            assertThat(h.condition("CapabilitiesReported").getMessage())
                    .doesNotContain("Build")
                    .doesNotContain("MachineAPI");
            assertThat(h.server.invalidWrites())
                    .as("every status write fits the CRD installed at the time")
                    .isEmpty();
        }
    }
}
