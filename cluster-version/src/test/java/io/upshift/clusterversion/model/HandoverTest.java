package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.api.json.Mappers;
import io.upshift.releases.manifest.Manifest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Who may say an update Completed: the controller that stays. */
class HandoverTest {
    private static final String OLD = "registry.example/release@sha256:" + "a".repeat(64);
    private static final String NEW = "registry.example/release@sha256:" + "b".repeat(64);

    private static Manifest deployment(String kind, String image) throws Exception {
        ObjectNode o =
                (ObjectNode)
                        Mappers.YAML.readTree(
                                "apiVersion: apps/v1\nkind: "
                                        + kind
                                        + "\nmetadata: {name: cluster-version-operator, namespace:"
                                        + " openshift-cluster-version}\nspec:\n  template:\n"
                                        + "    spec:\n      containers:\n      - name: a\n"
                                        + "        image: other\n      - name: b\n        image: '"
                                        + image
                                        + "'\n");
        return Manifest.of("0000_00_cluster-version-operator_03_deployment.yaml", 1, o);
    }

    @Test
    void theControllersDeploymentIsTheOneRunningTheReleaseImageInAnyContainer() throws Exception {
        assertThat(Handover.runsRelease(deployment("Deployment", NEW), NEW)).isTrue();
        assertThat(Handover.runsRelease(deployment("Deployment", NEW), OLD)).isFalse();
        assertThat(Handover.runsRelease(deployment("DaemonSet", NEW), NEW)).isFalse();
        assertThat(Handover.runsRelease(deployment("Deployment", NEW), null)).isFalse();
    }

    @Test
    void onlyTheControllerRunningTheTargetSaysCompletedWhenThePayloadReplacesIt() {
        assertThat(Handover.mayComplete(true, OLD, NEW))
                .as("the outgoing controller, its successor's Deployment applied")
                .isFalse();
        assertThat(Handover.mayComplete(true, null, NEW))
                .as("a controller given no release")
                .isFalse();
        assertThat(Handover.mayComplete(true, NEW, NEW)).as("the release's own").isTrue();
        assertThat(Handover.mayComplete(true, "docker://" + NEW, NEW))
                .as("its release named with the transport")
                .isTrue();
    }

    @Test
    void aPayloadThatReplacesNoControllerIsCompletedByTheOneApplyingIt() {
        assertThat(Handover.mayComplete(false, OLD, NEW)).isTrue();
        assertThat(Handover.mayComplete(false, null, NEW)).isTrue();
    }

    @Test
    void completesSaysWhenHistoryTurnsCompleted() {
        Instant t = Instant.parse("2026-11-27T12:00:00Z");
        List<UpdateHistory> partial = History.begin(List.of(), "1.0.0", OLD, true, "", t);
        List<UpdateHistory> done = History.complete(partial, OLD, t);
        assertThat(History.completes(partial, done)).isTrue();
        assertThat(History.completes(null, done)).isTrue();
        assertThat(History.completes(done, done)).as("already Completed").isFalse();
        assertThat(History.completes(done, partial)).isFalse();
        List<UpdateHistory> next =
                History.complete(History.begin(done, "1.0.1", NEW, true, "", t), NEW, t);
        assertThat(History.completes(done, next)).as("the next update completes").isTrue();
    }
}
