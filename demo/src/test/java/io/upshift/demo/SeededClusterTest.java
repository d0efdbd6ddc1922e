package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.upshift.clusterversion.model.AdminGates;
import io.upshift.rehearsal.model.ClusterFacts;
import io.upshift.status.model.ClusterState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the rehearsal's copy of a cluster is seeded with. */
class SeededClusterTest {

    @Test
    void aPodAlreadyTerminatingIsLeftOutOfTheCopy() {
        ClusterFacts facts =
                new ClusterFacts(
                        new ClusterState(
                                new ClusterVersionBuilder()
                                        .withNewMetadata()
                                        .withName("version")
                                        .endMetadata()
                                        .build(),
                                List.of(),
                                List.of(),
                                List.of(),
                                List.of(),
                                "",
                                Optional.empty()),
                        AdminGates.ConfigMaps.NONE,
                        null,
                        List.of(),
                        List.of(pod("db-0", null), pod("db-1", "2026-11-26T00:05:00Z")),
                        List.of(),
                        List.of());

        List<String> pods =
                SeededCluster.objects(facts, false).stream()
                        .filter(o -> o.getKind().equals("Pod"))
                        .map(HasMetadata::getMetadata)
                        .map(m -> m.getName())
                        .toList();

        assertThat(pods).containsExactly("db-0");
    }

    private static Pod pod(String name, String deleted) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("shop")
                .withName(name)
                .withDeletionTimestamp(deleted)
                .endMetadata()
                .withNewSpec()
                .withNodeName("worker-03")
                .endSpec()
                .build();
    }
}
