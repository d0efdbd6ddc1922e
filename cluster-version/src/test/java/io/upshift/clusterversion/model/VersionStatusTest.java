package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.ReleaseBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.conditions.StatusConditions;
import io.upshift.releases.capability.Capabilities;
import io.upshift.releases.capability.CapabilitySets;
import io.upshift.releases.taskgraph.Mode;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The ClusterVersion status that follows from the sync worker's report, step by step through one
 * update.
 */
class VersionStatusTest {
    static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
    static final String A = "example.com/r@sha256:aa", B = "example.com/r@sha256:bb";
    static final Upgradeable.Facts UPGRADEABLE = Upgradeable.Facts.none();

    static ClusterVersion cv(ClusterVersionStatus status) {
        return new ClusterVersionBuilder()
                .withNewMetadata()
                .withName("version")
                .withGeneration(3L)
                .endMetadata()
                .withNewSpec()
                .withClusterID("c")
                .endSpec()
                .withStatus(status)
                .build();
    }

    static ClusterVersionStatus next(ClusterVersionStatus current, SyncStatus sync, Instant now) {
        DesiredUpdates.Resolution resolution =
                new DesiredUpdates.Resolution(
                        new DesiredUpdates.Target("4.1.1", B, false, List.of()), null, null);
        return VersionStatus.next(
                new VersionStatus.Input(
                        cv(current),
                        resolution,
                        sync,
                        UpdatesReport.unchanged(now),
                        UPGRADEABLE,
                        new Capabilities(Set.of("Console"), Set.of("Console")),
                        now));
    }

    static String condition(ClusterVersionStatus s, String type) {
        var c = Conditions.CLUSTER.find(s.getConditions(), type);
        return c == null
                ? null
                : c.getStatus()
                        + " "
                        + (c.getReason() == null ? "" : c.getReason())
                        + " "
                        + (c.getMessage() == null ? "" : c.getMessage());
    }

    @Test
    void anUpdateFromAcceptedToCompleted() {
        ClusterVersionStatus installed = new ClusterVersionStatus();
        installed.setHistory(List.of(entry("4.1.0", A, "Completed")));
        SyncStatus.Target target = new SyncStatus.Target(B, "4.1.1");
        SyncStatus.Acceptance.Accepted accepted =
                new SyncStatus.Acceptance.Accepted("4.1.1", B, "", List.of(), true, "", "amd64");

        // accepted: desired and a Partial history entry, no progress yet
        SyncStatus sync = SyncStatus.IDLE.withAcceptance(target, accepted);
        ClusterVersionStatus s1 = next(installed, sync, T0);
        assertThat(s1.getDesired().getImage()).isEqualTo(B);
        assertThat(s1.getHistory())
                .extracting(UpdateHistory::getVersion, UpdateHistory::getState)
                .containsExactly(
                        Tuple.tuple("4.1.1", "Partial"), Tuple.tuple("4.1.0", "Completed"));
        assertThat(condition(s1, "ReleaseAccepted"))
                .startsWith("True PayloadLoaded Payload loaded version=\"4.1.1\"");
        assertThat(s1.getObservedGeneration()).isEqualTo(3L);

        // a single-architecture release records no architecture (upstream's status has only
        // Multi to say)
        assertThat(s1.getDesired().getArchitecture()).isNull();

        // progress: the same entry, Progressing counts
        sync = sync.withProgress(Mode.UPDATING, 5, 10, List.of("etcd"));
        ClusterVersionStatus s2 = next(s1, sync, T0.plusSeconds(10));
        assertThat(s2.getHistory()).hasSize(2);
        assertThat(condition(s2, "Progressing"))
                .isEqualTo(
                        "True  Working towards 4.1.1: 5 of 10 done (50% complete), waiting on"
                                + " etcd");

        // a pass failed: the failure is the message, and stays while the next pass counts on
        Failing failing =
                new Failing(
                        "True",
                        "UpdatePayloadFailed",
                        "Could not update x",
                        "the update could not be applied",
                        "the update could not be applied");
        sync = sync.afterPass(Mode.UPDATING, 6, 10, List.of(), failing, false, T0.plusSeconds(20));
        ClusterVersionStatus s3 = next(s2, sync, T0.plusSeconds(20));
        String unable =
                "True UpdatePayloadFailed Unable to apply 4.1.1: the update could not be applied";
        assertThat(condition(s3, "Progressing")).isEqualTo(unable);
        assertThat(condition(s3, "Failing"))
                .isEqualTo("True UpdatePayloadFailed Could not update x");
        sync = sync.withProgress(Mode.UPDATING, 7, 10, List.of());
        assertThat(condition(next(s3, sync, T0.plusSeconds(25)), "Progressing")).isEqualTo(unable);

        // complete
        sync =
                sync.afterPass(
                        Mode.UPDATING, 10, 10, List.of(), Failing.NONE, true, T0.plusSeconds(30));
        ClusterVersionStatus s4 = next(s3, sync, T0.plusSeconds(31));
        assertThat(s4.getHistory().get(0).getState()).isEqualTo("Completed");
        assertThat(s4.getHistory().get(0).getCompletionTime())
                .isEqualTo(T0.plusSeconds(30).toString());
        assertThat(condition(s4, "Progressing")).isEqualTo("False  Cluster version is 4.1.1");
        assertThat(condition(s4, "Available")).isEqualTo("True  Done applying 4.1.1");
        assertThat(condition(s4, "Failing")).startsWith("False");

        // level: the same inputs later give the same status, so nothing is written
        assertThat(next(s4, sync, T0.plusSeconds(300)))
                .isEqualTo(next(s4, sync, T0.plusSeconds(600)));
    }

    /**
     * The multi-architecture release of the same version: status.desired says Multi, a new history
     * entry for its image (the same version: oc's status reads it as a migration), the acceptance
     * names the architecture.
     */
    @Test
    void theMultiArchitectureReleaseOfTheSameVersionIsRecordedAsMulti() {
        ClusterVersionStatus installed = new ClusterVersionStatus();
        installed.setHistory(List.of(entry("4.1.1", A, "Completed")));
        SyncStatus.Acceptance.Accepted accepted =
                new SyncStatus.Acceptance.Accepted("4.1.1", B, "", List.of(), true, "", "Multi");
        ClusterVersionStatus s =
                next(
                        installed,
                        SyncStatus.IDLE.withAcceptance(new SyncStatus.Target(B, "4.1.1"), accepted),
                        T0);
        assertThat(s.getDesired().getArchitecture()).isEqualTo("Multi");
        assertThat(s.getHistory())
                .extracting(UpdateHistory::getVersion, UpdateHistory::getImage)
                .containsExactly(Tuple.tuple("4.1.1", B), Tuple.tuple("4.1.1", A));
        assertThat(condition(s, "ReleaseAccepted"))
                .endsWith("image=\"" + B + "\" architecture=\"Multi\"");
    }

    @Test
    void aRefusalIsReleaseAcceptedFalseAndLeavesHistoryAlone() {
        ClusterVersionStatus installed = new ClusterVersionStatus();
        installed.setHistory(List.of(entry("4.1.0", A, "Completed")));
        SyncStatus refused =
                SyncStatus.IDLE.withAcceptance(
                        new SyncStatus.Target(B, "4.1.1"),
                        new SyncStatus.Acceptance.Refused(
                                "VerifyPayloadVersion",
                                "release image version 4.1.2 does not match"));
        ClusterVersionStatus s = next(installed, refused, T0);
        assertThat(condition(s, "ReleaseAccepted"))
                .isEqualTo("False VerifyPayloadVersion release image version 4.1.2 does not match");
        assertThat(s.getHistory()).hasSize(1);
    }

    /**
     * Upstream's words while a payload is retrieved (pkg/cvo/sync_worker.go's RetrievePayload step,
     * pkg/cvo/status.go's setReleaseAcceptedCondition): they replace an earlier request's refusal
     * and failure at once.
     */
    @Test
    void whileTheTargetIsRetrievedReleaseAcceptedIsUnknownAndProgressingWorksTowardsIt() {
        String c = "example.com/r@sha256:cc";
        // running 4.1.0, an earlier request for 4.1.5 refused, a pass over 4.1.0 failing
        ClusterVersionStatus before = next(new ClusterVersionStatus(), SyncStatus.IDLE, T0);
        before.setDesired(new ReleaseBuilder().withVersion("4.1.0").withImage(A).build());
        before.setHistory(List.of(entry("4.1.0", A, "Completed")));
        before.setConditions(
                StatusConditions.set(
                        before.getConditions(),
                        "ReleaseAccepted",
                        "False",
                        "RetrievePayload",
                        "Retrieving payload failed version=\"4.1.5\" image=\""
                                + c
                                + "\" failure=manifest unknown",
                        T0));
        before.setConditions(
                StatusConditions.set(
                        before.getConditions(),
                        "Failing",
                        "True",
                        "ClusterOperatorDegraded",
                        "etcd is degraded",
                        T0));
        before.setConditions(
                StatusConditions.set(
                        before.getConditions(),
                        "Progressing",
                        "False",
                        "",
                        "Cluster version is 4.1.0",
                        T0));

        SyncStatus retrieving =
                SyncStatus.IDLE.withAcceptance(
                        new SyncStatus.Target(B, "4.1.1"), new SyncStatus.Acceptance.Pending());
        ClusterVersionStatus s = next(before, retrieving, T0.plusSeconds(5));
        assertThat(condition(s, "ReleaseAccepted"))
                .isEqualTo(
                        "Unknown RetrievePayload Retrieving and verifying payload version=\"4.1.1\""
                                + " image=\""
                                + B
                                + "\"");
        assertThat(condition(s, "Progressing")).isEqualTo("True  Working towards 4.1.1");
        assertThat(condition(s, "Failing")).isEqualTo("False  ");
        // nothing is recorded of the target before it is accepted
        assertThat(s.getDesired().getImage()).isEqualTo(A);
        assertThat(s.getHistory()).hasSize(1);
        // the same report later writes nothing
        assertThat(next(s, retrieving, T0.plusSeconds(60))).isEqualTo(s);

        // refused: ReleaseAccepted says why, Progressing still names the request, as upstream's
        SyncStatus refused =
                retrieving.withAcceptance(
                        new SyncStatus.Target(B, "4.1.1"),
                        new SyncStatus.Acceptance.Refused(
                                "RetrievePayload",
                                "Retrieving payload failed version=\"4.1.1\" image=\""
                                        + B
                                        + "\" failure=timed out"));
        ClusterVersionStatus r = next(s, refused, T0.plusSeconds(120));
        assertThat(condition(r, "ReleaseAccepted"))
                .startsWith("False RetrievePayload Retrieving payload failed version=\"4.1.1\"");
        assertThat(condition(r, "Progressing")).isEqualTo("True  Working towards 4.1.1");

        // a release given by image alone is named by its image
        SyncStatus byImage =
                SyncStatus.IDLE.withAcceptance(
                        new SyncStatus.Target(B, ""), new SyncStatus.Acceptance.Pending());
        assertThat(condition(next(before, byImage, T0), "Progressing"))
                .isEqualTo("True  Working towards " + B);
        assertThat(condition(next(before, byImage, T0), "ReleaseAccepted"))
                .contains("version=\"\" image=\"" + B + "\"");
    }

    @Test
    void theReleaseAlreadyAcceptedLoadedAgainChangesNothing() {
        ClusterVersionStatus installed = new ClusterVersionStatus();
        installed.setHistory(List.of(entry("4.1.0", A, "Completed")));
        SyncStatus.Target a = new SyncStatus.Target(A, "4.1.0");
        SyncStatus accepted =
                SyncStatus.IDLE
                        .withAcceptance(
                                a,
                                new SyncStatus.Acceptance.Accepted(
                                        "4.1.0", A, "", List.of(), true, "", "amd64"))
                        .afterPass(Mode.RECONCILING, 10, 10, List.of(), Failing.NONE, true, T0);
        ClusterVersionStatus level = next(installed, accepted, T0);
        assertThat(condition(level, "Progressing")).isEqualTo("False  Cluster version is 4.1.0");
        // a restarted controller loads it again: nothing to write
        SyncStatus again = SyncStatus.IDLE.withAcceptance(a, new SyncStatus.Acceptance.Pending());
        assertThat(next(level, again, T0.plusSeconds(60))).isEqualTo(level);
    }

    @Test
    void implicitlyEnabledCapabilitiesFollowFromSpecAndStatusAlone() {
        // Insights enabled earlier (by an update, or a spec that since dropped it): a controller
        // that never saw why
        // still reports it
        Capabilities caps =
                CapabilitySets.of(
                        "None", List.of("Console"), List.of("Console", "Insights"), Set.of());
        assertThat(caps.implicitlyEnabled()).containsExactly("Insights");
        ClusterVersionStatus s =
                VersionStatus.next(
                        new VersionStatus.Input(
                                cv(new ClusterVersionStatus()),
                                new DesiredUpdates.Resolution(
                                        new DesiredUpdates.Target("4.1.1", B, false, List.of()),
                                        null,
                                        null),
                                SyncStatus.IDLE,
                                UpdatesReport.unchanged(T0),
                                UPGRADEABLE,
                                caps,
                                T0));
        assertThat(condition(s, "ImplicitlyEnabledCapabilities"))
                .isEqualTo(
                        "True CapabilitiesImplicitlyEnabled The following capabilities could not be"
                                + " disabled: Insights");
        assertThat(s.getCapabilities().getEnabledCapabilities())
                .containsExactly("Console", "Insights");
        Capabilities asked =
                CapabilitySets.of(
                        "None",
                        List.of("Console", "Insights"),
                        List.of("Console", "Insights"),
                        Set.of());
        assertThat(asked.implicitlyEnabled()).isEmpty();
    }

    static UpdateHistory entry(String version, String image, String state) {
        UpdateHistory h = new UpdateHistory();
        h.setVersion(version);
        h.setImage(image);
        h.setState(state);
        h.setStartedTime(T0.minusSeconds(3600).toString());
        h.setCompletionTime(T0.minusSeconds(1800).toString());
        h.setVerified(true);
        return h;
    }

    @Test
    void aRefusedClusterConfigKindIsNamedInItsConditionWhileRefused() {
        DesiredUpdates.Resolution resolution =
                new DesiredUpdates.Resolution(
                        new DesiredUpdates.Target("4.1.1", B, false, List.of()), null, null);
        UnreadableConfig gate =
                new UnreadableConfig(
                        "featuregates.config.openshift.io",
                        "HTTP 403: featuregates.config.openshift.io is forbidden: User"
                            + " \"system:serviceaccount:openshift-cluster-version:upshift\" cannot"
                            + " list resource \"featuregates\"",
                        "the default feature set");
        ClusterVersionStatus refused =
                VersionStatus.next(
                        new VersionStatus.Input(
                                cv(new ClusterVersionStatus()),
                                resolution,
                                SyncStatus.IDLE,
                                UpdatesReport.unchanged(T0),
                                UPGRADEABLE,
                                new Capabilities(Set.of(), Set.of()),
                                T0,
                                List.of(gate)));
        assertThat(condition(refused, UnreadableConfig.CONDITION))
                .isEqualTo(
                        "False Forbidden featuregates.config.openshift.io is forbidden (HTTP 403:"
                            + " featuregates.config.openshift.io is forbidden: User"
                            + " \"system:serviceaccount:openshift-cluster-version:upshift\" cannot"
                            + " list resource \"featuregates\"); working without it: the default"
                            + " feature set");

        // readable again (an RBAC rule added): the condition goes, as upstream's conditions of a
        // passing check do
        ClusterVersionStatus readable =
                VersionStatus.next(
                        new VersionStatus.Input(
                                cv(refused),
                                resolution,
                                SyncStatus.IDLE,
                                UpdatesReport.unchanged(T0),
                                UPGRADEABLE,
                                new Capabilities(Set.of(), Set.of()),
                                T0.plusSeconds(60)));
        assertThat(condition(readable, UnreadableConfig.CONDITION)).isNull();
    }
}
