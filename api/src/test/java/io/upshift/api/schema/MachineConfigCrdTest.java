package io.upshift.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Our MachineConfigPool and MachineConfig CRDs accept the real objects OpenShift's CRDs accept. */
class MachineConfigCrdTest {

    private static int checkAgainstUpstream(String suffix, String crdName, String upstreamFile)
            throws Exception {
        CrdSchema ours = CrdSchema.bundled(crdName, "v1");
        CrdSchema theirs = ClusterVersionCrdTest.upstream("current/" + upstreamFile);
        int checked = 0;
        for (JsonNode object : ClusterVersionCrdTest.objects(suffix)) {
            if (!theirs.violations(object).isEmpty())
                continue; // only objects OpenShift's own CRD accepts
            assertThat(ours.violations(object))
                    .as(object.path("metadata").path("name").asText())
                    .isEmpty();
            checked++;
        }
        return checked;
    }

    @Test
    void realPoolsAndConfigsValidate() throws Exception {
        Assumptions.assumeTrue(
                Files.isDirectory(ClusterVersionCrdTest.fixtures().resolve("crds")),
                "shared fixtures not present");
        assertThat(
                        checkAgainstUpstream(
                                "-mcp.yaml",
                                "machineconfigpools.machineconfiguration.openshift.io",
                                "0000_80_machine-config_01_machineconfigpools.crd.yaml"))
                .isGreaterThan(10);
        assertThat(
                        checkAgainstUpstream(
                                "-mc.yaml",
                                "machineconfigs.machineconfiguration.openshift.io",
                                "0000_80_machine-config_01_machineconfigs.crd.yaml"))
                .isGreaterThan(50);
    }

    @Test
    void aPoolWithAFieldOfTheWrongTypeIsRejected() throws Exception {
        ObjectNode pool =
                (ObjectNode)
                        ClusterVersionCrdTest.YAML.readTree(
                                """
                                apiVersion: machineconfiguration.openshift.io/v1
                                kind: MachineConfigPool
                                metadata: {name: worker}
                                spec: {paused: "yes", maxUnavailable: 10%}
                                status: {machineCount: 3}
                                """);
        CrdSchema ours =
                CrdSchema.bundled("machineconfigpools.machineconfiguration.openshift.io", "v1");
        assertThat(ours.violations(pool)).singleElement().asString().contains("paused");
        ((ObjectNode) pool.path("spec")).put("paused", true);
        assertThat(ours.violations(pool)).isEmpty();
    }
}
