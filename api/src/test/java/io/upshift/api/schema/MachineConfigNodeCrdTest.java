package io.upshift.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * Our MachineConfigNode CRD takes the objects OpenShift 4.19's takes for the fields Upshift uses,
 * and refuses what it refuses.
 */
class MachineConfigNodeCrdTest {
    static final CrdSchema CRD =
            CrdSchema.bundled("machineconfignodes.machineconfiguration.openshift.io", "v1");

    /** As an OpenShift 4.19 cluster shows a worker that has just taken a new config. */
    static final String WORKER =
            """
            apiVersion: machineconfiguration.openshift.io/v1
            kind: MachineConfigNode
            metadata:
              name: worker-0
              generation: 3
              ownerReferences:
              - {apiVersion: v1, kind: Node, name: worker-0, uid: 6f1c1f3e-5f5e-4b7a-9d1e-0e8a0d3b2c11}
            spec:
              node: {name: worker-0}
              pool: {name: worker}
              configVersion: {desired: rendered-worker-8f3c2a}
            status:
              observedGeneration: 4
              configVersion: {current: rendered-worker-8f3c2a, desired: rendered-worker-8f3c2a}
              conditions:
              - {type: UpdatePrepared, status: "False", reason: UpdatePrepared, lastTransitionTime: "2025-06-01T10:02:00Z", message: "Action during update to rendered-worker-8f3c2a: Update Compatible. Post Cfg Actions: [] Drain Required: true"}
              - {type: UpdateExecuted, status: "False", reason: AppliedFilesAndOS, lastTransitionTime: "2025-06-01T10:02:00Z", message: "Action during update to rendered-worker-8f3c2a: Updated the Files and OS on disk as a part of the in progress phase"}
              - {type: UpdatePostActionComplete, status: "False", reason: NotYetOccurred, lastTransitionTime: "2025-06-01T09:00:00Z", message: This node has not yet entered the UpdatePostActionComplete phase}
              - {type: UpdateComplete, status: "False", reason: Uncordoned, lastTransitionTime: "2025-06-01T10:02:00Z", message: "Action during update to rendered-worker-8f3c2a: Uncordoned Node as part of completing upgrade phase"}
              - {type: Resumed, status: "False", reason: Resumed, lastTransitionTime: "2025-06-01T10:02:00Z", message: "Action during update to rendered-worker-8f3c2a: In desired config rendered-worker-8f3c2a. Resumed normal operations. Applying proper annotations."}
              - {type: Drained, status: "False", reason: UpdateExecutedDrained, lastTransitionTime: "2025-06-01T10:02:00Z", message: "Action during update to rendered-worker-8f3c2a: Drained node. The drain is complete as the desired drainer matches current drainer: drain-rendered-worker-8f3c2a"}
              - {type: AppliedFilesAndOS, status: "False", reason: UpdateExecutedAppliedFilesAndOS, lastTransitionTime: "2025-06-01T10:02:00Z", message: "Action during update to rendered-worker-8f3c2a: Applied files and new OS config to node. OS did need an update. SSH Keys did not need an update"}
              - {type: Cordoned, status: "False", reason: UpdateExecutedCordoned, lastTransitionTime: "2025-06-01T10:02:00Z", message: "Action during update to rendered-worker-8f3c2a: Cordoned node. The node is reporting Unschedulable = true"}
              - {type: RebootedNode, status: "False", reason: RebootedNode, lastTransitionTime: "2025-06-01T10:02:00Z", message: "Action during update to rendered-worker-8f3c2a: Node has rebooted"}
              - {type: Updated, status: "True", reason: Updated, lastTransitionTime: "2025-06-01T10:02:00Z", message: Node worker-0 Updated}
              - {type: Uncordoned, status: "False", reason: UpdateCompleteUncordoned, lastTransitionTime: "2025-06-01T10:02:00Z", message: "Action during update to rendered-worker-8f3c2a: UnCordoned node. The node is reporting Unschedulable = false"}
              - {type: NodeDegraded, status: "False", reason: NodeDegraded, lastTransitionTime: "2025-06-01T10:01:00Z", message: Node worker-0 upgrade succeeded}
              pinnedImageSets:
              - {name: release-images, currentGeneration: 1, desiredGeneration: 1}
            """;

    @Test
    void anUpstreamShapedObjectValidates() throws Exception {
        assertThat(CRD.violations(ClusterVersionCrdTest.YAML.readTree(WORKER))).isEmpty();
    }

    @Test
    void theSpecNamesNodePoolAndDesiredConfig() throws Exception {
        for (String field : new String[] {"node", "pool", "configVersion"}) {
            JsonNode mcn = ClusterVersionCrdTest.YAML.readTree(WORKER);
            ((ObjectNode) mcn.get("spec")).remove(field);
            assertThat(CRD.violations(mcn)).as(field).singleElement().asString().contains(field);
        }
        JsonNode upper = ClusterVersionCrdTest.YAML.readTree(WORKER);
        ((ObjectNode) upper.at("/spec/pool")).put("name", "Worker");
        assertThat(CRD.violations(upper)).singleElement().asString().contains("/spec/pool/name");
    }

    @Test
    void conditionsAreMetaV1Conditions() throws Exception {
        JsonNode status = ClusterVersionCrdTest.YAML.readTree(WORKER);
        ((ObjectNode) status.at("/status/conditions/0")).put("status", "Maybe");
        assertThat(CRD.violations(status))
                .singleElement()
                .asString()
                .contains("/status/conditions/0/status");

        JsonNode reason = ClusterVersionCrdTest.YAML.readTree(WORKER);
        ((ObjectNode) reason.at("/status/conditions/0")).put("reason", "");
        assertThat(CRD.violations(reason))
                .isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("/status/conditions/0/reason"));

        JsonNode noTime = ClusterVersionCrdTest.YAML.readTree(WORKER);
        ((ObjectNode) noTime.at("/status/conditions/0")).remove("lastTransitionTime");
        assertThat(CRD.violations(noTime))
                .singleElement()
                .asString()
                .contains("lastTransitionTime");

        JsonNode noDesired = ClusterVersionCrdTest.YAML.readTree(WORKER);
        ((ObjectNode) noDesired.at("/status/configVersion")).remove("desired");
        assertThat(CRD.violations(noDesired)).singleElement().asString().contains("desired");
    }
}
