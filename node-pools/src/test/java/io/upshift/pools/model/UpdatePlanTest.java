package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.upshift.api.json.Mappers;
import io.upshift.pools.disruption.DisruptionAction;
import io.upshift.pools.disruption.DisruptionPlan;
import io.upshift.pools.machineconfignode.UpdateSteps;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How the agent takes its node from one config to another, planned from the two configs and the
 * node disruption policies, before anything is touched.
 */
class UpdatePlanTest {
    static final String PULL_SECRET = "/var/lib/kubelet/config.json";

    static MachineConfig config(String name, String os, String file, String contents) {
        return new MachineConfigBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withOsImageURL(os)
                .withConfig(
                        Map.of(
                                "ignition",
                                Map.of("version", "3.2.0"),
                                "storage",
                                Map.of(
                                        "files",
                                        List.of(
                                                Map.of(
                                                        "path",
                                                        file,
                                                        "mode",
                                                        420,
                                                        "contents",
                                                        Map.of("source", "data:," + contents))))))
                .endSpec()
                .build();
    }

    static UpdatePlan plan(MachineConfig running, MachineConfig target) {
        return plan(running, target, null);
    }

    static UpdatePlan plan(
            MachineConfig running, MachineConfig target, GenericKubernetesResource policies) {
        return UpdatePlan.of(
                "w0",
                running == null ? "" : running.getMetadata().getName(),
                running,
                "rendered-b",
                target,
                policies,
                "uncordon-rendered-a");
    }

    @Test
    void aMissingConfigFailsTheNode() {
        assertThat(plan(config("rendered-a", "os@1", "/etc/x", "1"), null))
                .isEqualTo(new UpdatePlan.Failed("missing MachineConfig rendered-b"));
    }

    @Test
    void aFirstConfigDrainsAppliesEverythingAndReboots() {
        UpdatePlan.Steps plan =
                (UpdatePlan.Steps) plan(null, config("rendered-b", "os@1", "/etc/x", "1"));
        assertThat(plan.disruption()).isEqualTo(DisruptionPlan.REBOOT);
        assertThat(plan.from()).isNull();
        assertThat(plan.drains()).isTrue();
        assertThat(plan.reboots()).isTrue();
        assertThat(plan.os()).isTrue();
        assertThat(plan.drain()).isEqualTo("drain-rendered-b");
        assertThat(plan.working())
                .containsExactly(
                        UpdateSteps.prepared(DisruptionPlan.REBOOT),
                        UpdateSteps.cordoned(),
                        UpdateSteps.draining("drain-rendered-b", "uncordon-rendered-a"));
        assertThat(plan.drained())
                .containsExactly(
                        UpdateSteps.drained("drain-rendered-b"), UpdateSteps.applying(true, false));
        assertThat(plan.rebooting())
                .containsExactly(
                        UpdateSteps.applied(true, false),
                        UpdateSteps.rebooting(),
                        UpdateSteps.succeeded("w0"));
        assertThat(plan.finished()).containsExactly(UpdateSteps.rebooted());
    }

    @Test
    void aFileUnderANonePolicyIsWrittenWithNoDrainAndNoReboot() {
        UpdatePlan.Steps plan =
                (UpdatePlan.Steps)
                        plan(
                                config("rendered-a", "os@1", PULL_SECRET, "1"),
                                config("rendered-b", "os@1", PULL_SECRET, "2"));
        assertThat(plan.disruption().actions()).containsExactly(DisruptionAction.NONE);
        assertThat(plan.drains()).isFalse();
        assertThat(plan.reboots()).isFalse();
        assertThat(plan.os()).isFalse();
        assertThat(plan.working())
                .containsExactly(
                        UpdateSteps.prepared(plan.disruption()),
                        UpdateSteps.drainNotRequired(),
                        UpdateSteps.applying(false, false));
        assertThat(plan.finished())
                .containsExactly(
                        UpdateSteps.applied(false, false),
                        UpdateSteps.postActions(plan.disruption()).get(0),
                        UpdateSteps.succeeded("w0"));
    }

    @Test
    void theClustersPoliciesWeighTheChangeAndOnesThatDoNotParseFailTheNode() throws Exception {
        MachineConfig a = config("rendered-a", "os@1", "/etc/app.conf", "1"),
                b = config("rendered-b", "os@1", "/etc/app.conf", "2");
        assertThat(((UpdatePlan.Steps) plan(a, b)).disruption()).isEqualTo(DisruptionPlan.REBOOT);
        UpdatePlan.Steps drained =
                (UpdatePlan.Steps)
                        plan(
                                a,
                                b,
                                machineConfiguration(
                                        "{path: /etc/app.conf, actions: [{type: Drain}]}"));
        assertThat(drained.drains()).isTrue();
        assertThat(drained.reboots()).isFalse();
        assertThat(
                        plan(
                                a,
                                b,
                                machineConfiguration(
                                        "{path: /etc/app.conf, actions: [{type: Explode}]}")))
                .isEqualTo(
                        new UpdatePlan.Failed(
                                "invalid MachineConfiguration cluster: unknown node disruption"
                                        + " action type \"Explode\""));
    }

    @Test
    void aConfigTheNodeCannotTakeInPlaceIsRefusedInUpstreamsWords() {
        MachineConfig rt = config("rendered-b", "os@1", "/etc/x", "1");
        rt.getSpec().setKernelType("rt");
        UpdatePlan.Refused refused =
                (UpdatePlan.Refused) plan(config("rendered-a", "os@1", "/etc/x", "1"), rt);
        String error =
                "validating new MachineConfig \"rendered-b\" failed: kernelType=rt is invalid";
        assertThat(refused.reason())
                .isEqualTo(
                        "can't reconcile config rendered-a with rendered-b: configs rendered-a,"
                                + " rendered-b are not reconcilable: "
                                + error);
        assertThat(refused.report())
                .containsExactly(
                        UpdateSteps.incompatible(
                                "rendered-a",
                                "rendered-b",
                                "configs rendered-a, rendered-b are not reconcilable: " + error),
                        UpdateSteps.degraded("w0", refused.reason()));
    }

    @Test
    void aDrainThatTimesOutIsWordedAsUpstreamsDrainController() {
        UpdatePlan.Steps plan =
                (UpdatePlan.Steps) plan(null, config("rendered-b", "os@1", "/etc/x", "1"));
        assertThat(plan.drainFailure(Duration.ofHours(1)))
                .isEqualTo(
                        "failed to drain node: w0 after 1 hour. Please see"
                                + " machine-config-controller logs for more information");
        assertThat(plan.drainFailure(Duration.ofSeconds(8))).contains("after 8 seconds.");
        assertThat(plan.drainFailure(Duration.ofMinutes(90))).contains("after 90 minutes.");
        assertThat(plan.drainFailed("why"))
                .containsExactly(
                        UpdateSteps.drainFailed("why", "drain-rendered-b", "uncordon-rendered-a"));
    }

    static GenericKubernetesResource machineConfiguration(String filePolicy) throws Exception {
        return Mappers.JSON.convertValue(
                Mappers.YAML.readTree(
                        "apiVersion: operator.openshift.io/v1\n"
                                + "kind: MachineConfiguration\n"
                                + "metadata: {name: cluster}\n"
                                + "spec: {nodeDisruptionPolicy: {files: ["
                                + filePolicy
                                + "]}}"),
                GenericKubernetesResource.class);
    }
}
