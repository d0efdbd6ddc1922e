package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionCapabilitiesSpecBuilder;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Capabilities an update enables implicitly stay enabled, and stay reported, across controller
 * restarts.
 */
@Tag("e2e")
class CapabilitiesControllerTest {

    @TempDir Path dir;

    private static String tuning(String capability) {
        return "apiVersion: v1\n"
                + "kind: ConfigMap\n"
                + "metadata:\n"
                + "  name: tuning\n"
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
            h.client
                    .resources(ClusterVersion.class)
                    .withName("version")
                    .edit(
                            cv -> {
                                cv.getSpec()
                                        .setCapabilities(
                                                new ClusterVersionCapabilitiesSpecBuilder()
                                                        .withBaselineCapabilitySet("None")
                                                        .build());
                                return cv;
                            });
            String a = h.payloads.release("4.1.0", "4.1.0", true, tuning(null));
            // the next release puts the ConfigMap the cluster runs under a capability the spec does
            // not enable
            String b = h.payloads.release("4.1.1", "4.1.1", true, tuning("NodeTuning"));
            ControllerOptions options = ControllerHarness.options(a, dir.resolve("cache"));
            h.start(options);
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> h.completed("4.1.0"));
            assertThat(h.condition("ImplicitlyEnabledCapabilities").getStatus()).isEqualTo("False");

            h.requestUpdate("4.1.1", b, false);
            await("4.1.1 applied").atMost(Duration.ofSeconds(30)).until(() -> h.completed("4.1.1"));
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
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> h.controller.passes() > 0);
            Thread.sleep(500); // any status write of that pass lands
            assertThat(h.condition("ImplicitlyEnabledCapabilities")).isEqualTo(implicit);
            assertThat(h.clusterVersion().getStatus().getCapabilities().getEnabledCapabilities())
                    .containsExactly("NodeTuning");
        }
    }
}
