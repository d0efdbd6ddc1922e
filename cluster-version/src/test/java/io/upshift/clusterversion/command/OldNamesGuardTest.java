package io.upshift.clusterversion.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.upshift.testkit.EmbeddedApiServer;
import org.junit.jupiter.api.Test;

/**
 * The operator does not start its cluster-version controller beside Upshift under its old names:
 * refused while upshift/upshift-controller asks for a replica, allowed once it is scaled to 0,
 * being deleted, or absent.
 */
class OldNamesGuardTest {

    private static Deployment old(Integer replicas) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withNamespace("upshift")
                .withName("upshift-controller")
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .endSpec()
                .build();
    }

    @Test
    void theOldDeploymentAskingForAReplicaIsRefusedSayingWhatToDo() {
        assertThat(OldNamesGuard.refusal(old(1)))
                .hasValue(
                        "the Deployment upshift/upshift-controller (Upshift under its old names)"
                                + " asks for 1 replica(s): two cluster-version operators would"
                                + " write ClusterVersion; scale it to 0 first (kubectl -n upshift"
                                + " scale deployment/upshift-controller --replicas=0), as"
                                + " docs/install.md's \"Moving a cluster installed under the old"
                                + " names\" says");
        assertThat(OldNamesGuard.refusal(old(null))).isPresent();
        assertThat(OldNamesGuard.refusal(old(0))).isEmpty();
        assertThat(OldNamesGuard.refusal((Deployment) null)).isEmpty();
        Deployment deleting = old(1);
        deleting.getMetadata().setDeletionTimestamp("2026-11-27T05:00:00Z");
        assertThat(OldNamesGuard.refusal(deleting)).isEmpty();
    }

    @Test
    void itIsReadFromTheCluster() {
        try (EmbeddedApiServer server = new EmbeddedApiServer()) {
            assertThat(OldNamesGuard.refusal(server.client())).isEmpty();
            server.client().apps().deployments().resource(old(1)).create();
            assertThat(OldNamesGuard.refusal(server.client())).isPresent();
        }
    }
}
