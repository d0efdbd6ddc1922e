package io.upshift.clusterversion.model;

import static io.upshift.clusterversion.model.VersionStatusTest.B;
import static io.upshift.clusterversion.model.VersionStatusTest.T0;
import static io.upshift.clusterversion.model.VersionStatusTest.condition;
import static io.upshift.clusterversion.model.VersionStatusTest.next;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.releases.taskgraph.Mode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Progressing (and Failing) say what upstream's say (pkg/cvo/status.go updateClusterVersionStatus,
 * its status_test.go and cvo_test.go cases, pkg/payload/task.go SummaryForReason), with this test's
 * own versions and operators: "Working towards V" with nothing done, the count and truncated
 * percentage once something is, the waiting tails, "Unable to apply V: ..." once the update fails,
 * "Error while reconciling V: ..." when a reconcile pass fails, "Cluster version is V" when done.
 */
class ProgressingWordsTest {

    static final Failing.Thresholds T = Failing.Thresholds.standard();

    static SyncStatus updating() {
        return SyncStatus.IDLE.withAcceptance(
                new SyncStatus.Target(B, "4.1.1"),
                new SyncStatus.Acceptance.Accepted("4.1.1", B, "", List.of(), true, "", "amd64"));
    }

    static ClusterVersionStatus installed() {
        UpdateHistory e = new UpdateHistory();
        e.setVersion("4.1.0");
        e.setImage(VersionStatusTest.A);
        e.setState("Completed");
        ClusterVersionStatus s = new ClusterVersionStatus();
        s.setHistory(List.of(e));
        return s;
    }

    static String progressing(SyncStatus sync) {
        return condition(next(installed(), sync, T0.plusSeconds(1)), "Progressing");
    }

    static TaskError error(String name, String reason, OperatorLevel.Effect effect, Duration age) {
        return new TaskError(name, reason, reason + " of " + name, effect, T0.minus(age));
    }

    static Failing failing(TaskError... errors) {
        return Failing.of(List.of(errors), T0, T);
    }

    @Test
    void workingTowards() {
        SyncStatus u = updating();
        assertThat(progressing(u.withProgress(Mode.UPDATING, 0, 420, List.of())))
                .isEqualTo("True  Working towards 4.1.1");
        assertThat(progressing(u.withProgress(Mode.UPDATING, 140, 420, List.of())))
                .isEqualTo("True  Working towards 4.1.1: 140 of 420 done (33% complete)");
        assertThat(progressing(u.withProgress(Mode.UPDATING, 0, 420, List.of("etcd"))))
                .isEqualTo("True  Working towards 4.1.1: waiting on etcd");
        assertThat(progressing(u.withProgress(Mode.UPDATING, 7, 9, List.of("dns", "etcd"))))
                .isEqualTo(
                        "True  Working towards 4.1.1: 7 of 9 done (77% complete), waiting on dns,"
                                + " etcd");
    }

    @Test
    void thePercentageIsTruncatedInSinglePrecisionAsGosIs() {
        // float32(2)/float32(3)*100 is 66.66667: 66; 29 of 100 is 29 whatever binary fractions do
        assertThat(new Progress("v", 2, 3, "").percent()).isEqualTo(66);
        assertThat(new Progress("v", 29, 100, "").percent()).isEqualTo(29);
        assertThat(new Progress("v", 999, 1000, "").percent()).isEqualTo(99);
        assertThat(new Progress("v", 1000, 1000, "").percent()).isEqualTo(100);
    }

    @Test
    void waitingTails() {
        Duration min5 = Duration.ofMinutes(5), min31 = Duration.ofMinutes(31);
        TaskError slowA =
                error("co-a", "ClusterOperatorUpdating", OperatorLevel.Effect.NONE, min31);
        TaskError slowB =
                error("co-b", "ClusterOperatorUpdating", OperatorLevel.Effect.NONE, min31);
        TaskError mcSlow =
                error(
                        "machine-config",
                        "ClusterOperatorUpdating",
                        OperatorLevel.Effect.NONE,
                        Duration.ofMinutes(91));
        assertThat(failing(slowA).message())
                .isEqualTo("waiting on co-a over 30 minutes which is longer than expected");
        assertThat(failing(slowA, slowB).message())
                .isEqualTo("waiting on co-a, co-b over 30 minutes which is longer than expected");
        assertThat(failing(slowA, slowB, mcSlow).message())
                .isEqualTo(
                        "waiting on co-a, co-b over 30 minutes and machine-config over 90 minutes"
                                + " which is longer than expected");
        assertThat(failing(mcSlow))
                .extracting(Failing::status, Failing::reason, Failing::message)
                .containsExactly(
                        "Unknown",
                        "SlowClusterOperator",
                        "waiting on machine-config over 90 minutes which is longer than"
                                + " expected");

        SyncStatus u = updating();
        assertThat(
                        progressing(
                                u.afterPass(
                                        Mode.UPDATING,
                                        12,
                                        40,
                                        List.of(),
                                        failing(slowA),
                                        false,
                                        T0)))
                .isEqualTo(
                        "True  Working towards 4.1.1: 12 of 40 done (30% complete), waiting on"
                                + " co-a over 30 minutes which is longer than expected");
        TaskError degraded =
                error(
                        "co-d",
                        "ClusterOperatorDegraded",
                        OperatorLevel.Effect.FAIL_AFTER_INTERVAL,
                        min5);
        assertThat(
                        progressing(
                                u.afterPass(
                                        Mode.UPDATING,
                                        0,
                                        40,
                                        List.of(),
                                        failing(degraded),
                                        false,
                                        T0)))
                .isEqualTo("True  Working towards 4.1.1: waiting up to 40 minutes on co-d");
    }

    @Test
    void unableToApply() {
        SyncStatus u = updating();
        TaskError degraded =
                error(
                        "co-d",
                        "ClusterOperatorDegraded",
                        OperatorLevel.Effect.FAIL_AFTER_INTERVAL,
                        Duration.ofMinutes(41));
        assertThat(
                        progressing(
                                u.afterPass(
                                        Mode.UPDATING,
                                        20,
                                        40,
                                        List.of(),
                                        failing(degraded),
                                        false,
                                        T0)))
                .isEqualTo(
                        "True ClusterOperatorDegraded Unable to apply 4.1.1: wait has exceeded 40"
                                + " minutes for these operators: co-d");
        TaskError integrity =
                error(
                        "payload",
                        "UpdatePayloadIntegrity",
                        OperatorLevel.Effect.FAIL,
                        Duration.ZERO);
        assertThat(
                        progressing(
                                u.afterPass(
                                        Mode.UPDATING,
                                        20,
                                        40,
                                        List.of(),
                                        failing(integrity),
                                        false,
                                        T0)))
                .isEqualTo(
                        "True UpdatePayloadIntegrity Unable to apply 4.1.1: the contents of the"
                                + " update are invalid");
        TaskError down =
                error(
                        "co-x",
                        "ClusterOperatorNotAvailable",
                        OperatorLevel.Effect.FAIL,
                        Duration.ZERO);
        assertThat(
                        progressing(
                                u.afterPass(
                                        Mode.UPDATING,
                                        20,
                                        40,
                                        List.of(),
                                        failing(down),
                                        false,
                                        T0)))
                .isEqualTo(
                        "True ClusterOperatorNotAvailable Unable to apply 4.1.1: the cluster"
                                + " operator co-x is not available");
        // two operators of one reason are said together, as upstream condenses them
        TaskError down2 =
                error(
                        "co-w",
                        "ClusterOperatorNotAvailable",
                        OperatorLevel.Effect.FAIL,
                        Duration.ZERO);
        Failing both = failing(down, down2);
        assertThat(both)
                .extracting(Failing::status, Failing::reason, Failing::message)
                .containsExactly(
                        "True",
                        "ClusterOperatorsNotAvailable",
                        "Cluster operators co-w, co-x are not available");
        assertThat(progressing(u.afterPass(Mode.UPDATING, 20, 40, List.of(), both, false, T0)))
                .isEqualTo(
                        "True ClusterOperatorsNotAvailable Unable to apply 4.1.1: some cluster"
                                + " operators are not available");
        // different failures: upstream's MultipleErrors, its messages sorted
        Failing several = failing(integrity, down);
        assertThat(several.message())
                .isEqualTo(
                        "Multiple errors are preventing progress:\n"
                                + "* ClusterOperatorNotAvailable of co-x\n"
                                + "* UpdatePayloadIntegrity of payload");
        assertThat(progressing(u.afterPass(Mode.UPDATING, 20, 40, List.of(), several, false, T0)))
                .isEqualTo(
                        "True MultipleErrors Unable to apply 4.1.1: an unknown error has occurred:"
                                + " MultipleErrors");
    }

    @Test
    void reconciling() {
        SyncStatus done =
                updating().afterPass(Mode.UPDATING, 40, 40, List.of(), Failing.NONE, true, T0);
        assertThat(progressing(done)).isEqualTo("False  Cluster version is 4.1.1");
        assertThat(condition(next(installed(), done, T0), "Available"))
                .isEqualTo("True  Done applying 4.1.1");
        TaskError forbidden =
                error(
                        "deployment ns/x",
                        "UpdatePayloadResourceForbidden",
                        OperatorLevel.Effect.FAIL,
                        Duration.ZERO);
        SyncStatus failed =
                done.afterPass(
                        Mode.RECONCILING,
                        12,
                        40,
                        List.of(),
                        Failing.of(List.of(forbidden), T0, T),
                        false,
                        T0.plusSeconds(60));
        ClusterVersionStatus s = next(installed(), failed, T0.plusSeconds(61));
        assertThat(condition(s, "Progressing"))
                .isEqualTo(
                        "False UpdatePayloadResourceForbidden Error while reconciling 4.1.1: the"
                                + " server is rejecting updates");
        assertThat(condition(s, "Available")).isEqualTo("True  Done applying 4.1.1");
        assertThat(condition(s, "Failing"))
                .isEqualTo(
                        "True UpdatePayloadResourceForbidden UpdatePayloadResourceForbidden of"
                                + " deployment ns/x");
        // the next pass completes: the cluster version is the version again
        SyncStatus again =
                failed.afterPass(Mode.RECONCILING, 40, 40, List.of(), Failing.NONE, true, T0);
        assertThat(progressing(again)).isEqualTo("False  Cluster version is 4.1.1");
    }

    @Test
    void summariesAreUpstreams() {
        assertThat(FailureSummary.forReason("UpdatePayloadFailed", ""))
                .isEqualTo("the update could not be applied");
        assertThat(FailureSummary.forReason("UpdatePayloadResourceNotFound", ""))
                .isEqualTo("some resources could not be updated");
        assertThat(FailureSummary.forReason("UpgradePreconditionCheckFailed", ""))
                .isEqualTo("it may not be safe to apply this update");
        assertThat(FailureSummary.forReason("ClusterOperatorDegraded", ""))
                .isEqualTo("a cluster operator is degraded");
        assertThat(FailureSummary.forReason("NoDesiredImage", ""))
                .isEqualTo("an unknown error has occurred: NoDesiredImage");
        assertThat(FailureSummary.forReason("Odd", "thing"))
                .isEqualTo("thing has an unknown error: Odd");
    }
}
