package io.upshift.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * Our MachineConfiguration CRD takes the objects OpenShift's takes for the fields Upshift uses, and
 * refuses what it refuses.
 */
class MachineConfigurationCrdTest {
    static final CrdSchema CRD =
            CrdSchema.bundled("machineconfigurations.operator.openshift.io", "v1");

    /** As an OpenShift 4.19 cluster shows it, a user's policy added. */
    static final String CLUSTER =
            """
            apiVersion: operator.openshift.io/v1
            kind: MachineConfiguration
            metadata: {name: cluster, generation: 2}
            spec:
              logLevel: Normal
              managementState: Managed
              operatorLogLevel: Normal
              managedBootImages:
                machineManagers:
                - {apiGroup: machine.openshift.io, resource: machinesets, selection: {mode: All}}
              nodeDisruptionPolicy:
                files:
                - path: /etc/upshift-demo/motd
                  actions: [{type: None}]
                - path: /etc/app.conf
                  actions: [{type: Drain}, {type: Reload, reload: {serviceName: app.service}}]
                units:
                - name: app.service
                  actions: [{type: DaemonReload}, {type: Restart, restart: {serviceName: app.service}}]
                sshkey:
                  actions: [{type: None}]
            status:
              observedGeneration: 2
              conditions:
              - {type: BootImageUpdateDegraded, status: "False", reason: AsExpected, message: "", lastTransitionTime: "2025-06-01T10:00:00Z"}
              managedBootImagesStatus:
                machineManagers:
                - {apiGroup: machine.openshift.io, resource: machinesets, selection: {mode: All}}
              nodeDisruptionPolicyStatus:
                clusterPolicies:
                  files:
                  - path: /etc/containers/registries.conf
                    actions: [{type: Special}]
                  - path: /etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt
                    actions:
                    - {type: Restart, restart: {serviceName: coreos-update-ca-trust.service}}
                    - {type: Restart, restart: {serviceName: crio.service}}
                  sshkey:
                    actions: [{type: None}]
            """;

    @Test
    void anUpstreamShapedObjectValidates() throws Exception {
        JsonNode mc = ClusterVersionCrdTest.YAML.readTree(CLUSTER);
        assertThat(CRD.violations(mc)).isEmpty();
    }

    @Test
    void specialIsTheOperatorsOwnAndActionsAreKnown() throws Exception {
        JsonNode special = ClusterVersionCrdTest.YAML.readTree(CLUSTER);
        ((ObjectNode) special.at("/spec/nodeDisruptionPolicy/files/0/actions/0"))
                .put("type", "Special");
        assertThat(CRD.violations(special))
                .singleElement()
                .asString()
                .contains("/spec/nodeDisruptionPolicy/files/0/actions/0/type");

        JsonNode unit = ClusterVersionCrdTest.YAML.readTree(CLUSTER);
        ((ObjectNode) unit.at("/spec/nodeDisruptionPolicy/units/0")).put("name", "app");
        assertThat(CRD.violations(unit))
                .singleElement()
                .asString()
                .contains("/spec/nodeDisruptionPolicy/units/0/name");

        JsonNode noActions = ClusterVersionCrdTest.YAML.readTree(CLUSTER);
        ((ObjectNode) noActions.at("/spec/nodeDisruptionPolicy/sshkey")).remove("actions");
        assertThat(CRD.violations(noActions)).singleElement().asString().contains("actions");
    }
}
