package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.StatusConditions;
import io.upshift.releases.taskgraph.Mode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a controller taking over an update reads back of what status reports of it: the count, and
 * what it waits on in the plain form, only for the update in progress and the payload counted.
 */
class ProgressReportedTest {
    private static final String B = "example.com/release@sha256:bb";

    private static ClusterVersionStatus status(String state, String progressing) {
        ClusterVersionStatus s = new ClusterVersionStatus();
        Release desired = new Release();
        desired.setVersion("4.1.1");
        desired.setImage(B);
        s.setDesired(desired);
        UpdateHistory h = new UpdateHistory();
        h.setVersion("4.1.1");
        h.setImage(B);
        h.setState(state);
        s.setHistory(List.of(h));
        s.setConditions(
                StatusConditions.set(
                        null,
                        "Progressing",
                        "True",
                        "",
                        progressing,
                        Instant.parse("2026-11-02T00:00:00Z")));
        return s;
    }

    private static Optional<Progress.Reported> reported(String message) {
        return Progress.reported(status("Partial", message), B, "4.1.1", 12);
    }

    @Test
    void theCountAndWhatItWaitsOn() {
        assertThat(reported("Working towards 4.1.1: 11 of 12 done (91% complete)"))
                .contains(new Progress.Reported(11, List.of()));
        assertThat(
                        reported(
                                "Working towards 4.1.1: 11 of 12 done (91% complete), waiting on"
                                        + " etcd, kube-apiserver"))
                .contains(new Progress.Reported(11, List.of("etcd", "kube-apiserver")));
        assertThat(
                        reported(
                                "Working towards 4.1.1: 11 of 12 done (91% complete), waiting on"
                                        + " etcd over 30 minutes which is longer than expected"))
                .as("the count, not a tail of another form")
                .contains(new Progress.Reported(11, List.of()));
    }

    @Test
    void nothingOfAnotherUpdateAPayloadOfAnotherSizeOrAnUpdateDone() {
        assertThat(reported("Working towards 4.1.1")).isEmpty();
        assertThat(reported("Working towards 4.1.2: 11 of 12 done (91% complete)")).isEmpty();
        assertThat(reported("Unable to apply 4.1.1: the update could not be applied")).isEmpty();
        assertThat(
                        Progress.reported(
                                status(
                                        "Partial",
                                        "Working towards 4.1.1: 11 of 12 done (91% complete)"),
                                B,
                                "4.1.1",
                                13))
                .isEmpty();
        assertThat(
                        Progress.reported(
                                status(
                                        "Completed",
                                        "Working towards 4.1.1: 11 of 12 done (91% complete)"),
                                B,
                                "4.1.1",
                                12))
                .isEmpty();
        assertThat(
                        Progress.reported(
                                status(
                                        "Partial",
                                        "Working towards 4.1.1: 11 of 12 done (91% complete)"),
                                "example.com/release@sha256:cc",
                                "4.1.1",
                                12))
                .isEmpty();
    }

    @Test
    void aResumedStatusNeverCountsLowerAndKeepsWhatItWaitsOnUntilAPassSays() {
        SyncStatus resumed =
                SyncStatus.IDLE
                        .withAcceptance(
                                new SyncStatus.Target(B, "4.1.1"),
                                new SyncStatus.Acceptance.Accepted(
                                        "4.1.1", B, "", List.of(), true, "", "amd64"))
                        .resumedFrom(11, List.of("test-operator"));
        assertThat(resumed.done()).isEqualTo(11);
        assertThat(resumed.waitingOn()).containsExactly("test-operator");
        SyncStatus first = resumed.withProgress(Mode.UPDATING, 2, 12, List.of("test-operator"));
        assertThat(first.done()).isEqualTo(11);
        assertThat(
                        new Progress(
                                        "4.1.1",
                                        first.done(),
                                        first.total(),
                                        "waiting on test-operator")
                                .message())
                .isEqualTo(
                        "Working towards 4.1.1: 11 of 12 done (91% complete), waiting on"
                                + " test-operator");
    }
}
