package io.upshift.status.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.FeatureGate;
import io.fabric8.openshift.api.model.config.v1.FeatureGateBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kinds a rehearsal reads besides what {@code upshift status} shows (budgets, pods, ConfigMaps,
 * the FeatureGate, MachineConfigs) are written by {@link SnapshotDump} one file per kind, as
 * kubectl would, and read back by {@link Snapshot#read} with their fields.
 */
class SnapshotKindsTest {
    @TempDir Path dir;

    @Test
    void whatARehearsalNeedsIsWrittenAndReadBack() throws Exception {
        List<HasMetadata> objects =
                List.of(
                        new ClusterVersionBuilder()
                                .withNewMetadata()
                                .withName("version")
                                .endMetadata()
                                .withNewSpec()
                                .withClusterID("c")
                                .endSpec()
                                .withNewStatus()
                                .withNewDesired()
                                .withVersion("4.18.1")
                                .endDesired()
                                .endStatus()
                                .build(),
                        new NodeBuilder()
                                .withNewMetadata()
                                .withName("worker-0")
                                .endMetadata()
                                .build(),
                        new MachineConfigPoolBuilder()
                                .withNewMetadata()
                                .withName("worker")
                                .endMetadata()
                                .build(),
                        new MachineConfigBuilder()
                                .withNewMetadata()
                                .withName("rendered-worker-1")
                                .endMetadata()
                                .withNewSpec()
                                .withOsImageURL("quay.io/os@sha256:" + "1".repeat(64))
                                .endSpec()
                                .build(),
                        new PodDisruptionBudgetBuilder()
                                .withNewMetadata()
                                .withNamespace("shop")
                                .withName("db")
                                .endMetadata()
                                .withNewSpec()
                                .withMinAvailable(new IntOrString(2))
                                .endSpec()
                                .build(),
                        new PodBuilder()
                                .withNewMetadata()
                                .withNamespace("shop")
                                .withName("db-0")
                                .endMetadata()
                                .withNewSpec()
                                .withNodeName("worker-0")
                                .endSpec()
                                .build(),
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withNamespace("openshift-config")
                                .withName("admin-acks")
                                .endMetadata()
                                .addToData("ack-4.18-kube-1.32-api-removals-in-4.19", "true")
                                .build(),
                        new FeatureGateBuilder()
                                .withNewMetadata()
                                .withName("cluster")
                                .endMetadata()
                                .withNewSpec()
                                .withFeatureSet("TechPreviewNoUpgrade")
                                .endSpec()
                                .build());

        SnapshotDump.write(dir, objects);

        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .contains(
                            "poddisruptionbudgets.yaml",
                            "pods.yaml",
                            "configmaps.yaml",
                            "featuregates.yaml",
                            "machineconfigs.yaml");
        }
        Snapshot.Contents read = Snapshot.read(dir.toString());
        assertThat(read.of(PodDisruptionBudget.class))
                .singleElement()
                .satisfies(b -> assertThat(b.getSpec().getMinAvailable().getIntVal()).isEqualTo(2));
        assertThat(read.of(Pod.class))
                .singleElement()
                .satisfies(p -> assertThat(p.getSpec().getNodeName()).isEqualTo("worker-0"));
        assertThat(read.of(ConfigMap.class))
                .singleElement()
                .satisfies(
                        c ->
                                assertThat(c.getData())
                                        .containsEntry(
                                                "ack-4.18-kube-1.32-api-removals-in-4.19", "true"));
        assertThat(read.of(FeatureGate.class))
                .singleElement()
                .satisfies(
                        g ->
                                assertThat(g.getSpec().getFeatureSet())
                                        .isEqualTo("TechPreviewNoUpgrade"));
        assertThat(read.of(MachineConfig.class))
                .singleElement()
                .satisfies(m -> assertThat(m.getSpec().getOsImageURL()).endsWith("1".repeat(64)));
        assertThat(Snapshot.fromDirectory(dir.toString()).machineConfigs()).hasSize(1);
    }
}
