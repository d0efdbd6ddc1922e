package io.upshift.status.model;

import static io.upshift.status.model.TestCluster.NEW;
import static io.upshift.status.model.TestCluster.NOW;
import static io.upshift.status.model.TestCluster.OLD;
import static io.upshift.status.model.TestCluster.STARTED;
import static io.upshift.status.model.TestCluster.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.upshift.api.update.HealthInsight;
import io.upshift.api.update.ImpactLevel;
import io.upshift.status.render.Details;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class ControlPlaneAssessmentTest {
    private final TestCluster cluster = new TestCluster();

    private List<HealthInsight> health() {
        return UpdateAssessment.health(cluster.assess());
    }

    private static Instant ago(int minutes) {
        return NOW.minus(Duration.ofMinutes(minutes));
    }

    @Test
    void countsUpdatedUpdatingAndWaitingPlatformOperators() {
        cluster.operator("etcd", NEW)
                .operator(
                        "kube-apiserver",
                        OLD,
                        condition(
                                "Progressing",
                                "True",
                                "NodeInstaller",
                                "rolling\nrevision 7",
                                ago(3)))
                .operator("dns", OLD)
                .operator("ingress", OLD);
        cluster.operators.add(
                new ClusterOperatorBuilder()
                        .withNewMetadata()
                        .withName("not-ours")
                        .endMetadata()
                        .build());
        String text = cluster.render(Details.operators);
        assertThat(text)
                .contains("Updating:        kube-apiserver\n")
                .contains("Completion:      25% (1 operators updated, 1 updating, 2 waiting)\n")
                .contains("Operator Health: 4 Healthy\n")
                .contains("kube-apiserver   3m      NodeInstaller   rolling\n")
                .contains("                                        revision 7\n");
    }

    @Test
    void anEstimateFromTheBaselineBeforeAnyOperatorIsUpdated() {
        cluster.operator("etcd", OLD).operator("dns", OLD);
        // An hour's baseline, half an hour in: 30 minutes left, overestimated by a fifth.
        assertThat(cluster.render(Details.none))
                .contains("Duration:        30m (Est. Time Remaining: 36m)\n")
                .contains("Assessment:      Progressing\n");
    }

    @Test
    void anUpdateFarPastItsEstimateIsStalled() {
        Instant started = NOW.minus(Duration.ofHours(3));
        cluster.history.set(0, TestCluster.history("Partial", NEW, started, null));
        // Half the operators were done ten minutes in, nothing moved since: the estimate ran out
        // long ago.
        cluster.operator(
                        "etcd",
                        NEW,
                        condition(
                                "Progressing",
                                "False",
                                "",
                                "",
                                started.plus(Duration.ofMinutes(10))))
                .operator("dns", OLD, condition("Progressing", "False", "", "", started));
        assertThat(cluster.render(Details.none))
                .contains("Assessment:      Stalled\n")
                .contains("(Est. Time Remaining: N/A; estimate duration was ");
    }

    @Test
    void aCompletedControlPlaneSaysWhenItFinished() {
        cluster.history.set(0, TestCluster.history("Completed", NEW, STARTED, ago(2)));
        cluster.operator("etcd", NEW);
        assertThat(cluster.render(Details.none))
                .startsWith(
                        "= Control Plane =\n"
                                + "Update to 1.1.0 successfully completed at 2026-11-20T09:58:00Z"
                                + " (duration: 28m)\n");
    }

    @Test
    void anOperatorUnavailableForLongIsAWarningThenAnError() {
        cluster.operator("a", NEW, condition("Available", "False", "Down", "pods crash", ago(10)))
                .operator("b", NEW, condition("Available", "False", "Down", "", ago(25)))
                .operator("c", NEW, condition("Available", "False", "Blip", "", ago(3)))
                .operator("dns", OLD);
        assertThat(health())
                .extracting(
                        h -> h.impact().summary(),
                        h -> h.impact().level(),
                        h -> h.impact().description())
                .containsExactly(
                        Tuple.tuple(
                                "Cluster Operator a is unavailable (Down)",
                                ImpactLevel.Warning,
                                "pods crash"),
                        Tuple.tuple(
                                "Cluster Operator b is unavailable (Down)",
                                ImpactLevel.Error,
                                "<no message>"));
        assertThat(cluster.render(Details.none))
                .contains("Operator Health: 1 Healthy, 3 Unavailable\n");
    }

    @Test
    void anOperatorDegradedForFortyMinutesIsAnError() {
        cluster.operator("etcd", NEW, condition("Degraded", "True", "Quorum", "2 of 3", ago(41)))
                .operator("dns", OLD);
        assertThat(health())
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.impact().summary())
                                    .isEqualTo("Cluster Operator etcd is degraded (Quorum)");
                            assertThat(h.impact().level()).isEqualTo(ImpactLevel.Error);
                        });
        assertThat(cluster.render(Details.none))
                .contains("Operator Health: 1 Healthy, 1 Available but degraded\n");
    }

    @Test
    void aClusterVersionWithoutFailingOrUnsureOfItIsReported() {
        cluster.operator("dns", OLD);
        cluster.cvConditions.removeIf(c -> c.getType().equals("Failing"));
        assertThat(health())
                .singleElement()
                .satisfies(
                        h ->
                                assertThat(h.impact().summary())
                                        .isEqualTo(
                                                "Cluster Version version has no Failing"
                                                        + " condition"));
        cluster.cvConditions.add(condition("Failing", "Unknown", "Checking", "not sure", ago(1)));
        assertThat(health())
                .singleElement()
                .satisfies(
                        h ->
                                assertThat(h.impact().summary())
                                        .isEqualTo(
                                                "Cluster Version version may be failing to proceed"
                                                        + " with the update (Checking)"));
    }

    @Test
    void anUpdateStartedOverAnIncompleteOneSaysSo() {
        cluster.history.set(
                1,
                TestCluster.history("Partial", "1.0.5", STARTED.minus(Duration.ofDays(1)), null));
        cluster.history.add(
                TestCluster.history(
                        "Completed",
                        OLD,
                        STARTED.minus(Duration.ofDays(9)),
                        STARTED.minus(Duration.ofDays(9))));
        cluster.operator("dns", OLD);
        assertThat(cluster.render(Details.none))
                .contains("Target Version:  1.1.0 (from incomplete 1.0.5)\n")
                .contains(
                        "Previous update to 1.0.5 never completed, last complete update was 1.0.0");
    }

    @Test
    void machineConfigIsUpdatedOnlyWhenItRunsTheDeployedImage() {
        cluster.operators.add(
                new ClusterOperatorBuilder()
                        .withNewMetadata()
                        .withName("machine-config")
                        .withAnnotations(
                                Map.of(
                                        "exclude.release.openshift.io/internal-openshift-hosted",
                                        "true"))
                        .endMetadata()
                        .withNewStatus()
                        .addNewVersion()
                        .withName("operator")
                        .withVersion(NEW)
                        .endVersion()
                        .addNewVersion()
                        .withName("operator-image")
                        .withVersion("example.com/mco@sha256:1")
                        .endVersion()
                        .withConditions(condition("Available", "True", "", "", STARTED))
                        .endStatus()
                        .build());
        cluster.operator("dns", NEW);
        cluster.mcoImage = "example.com/mco@sha256:2";
        assertThat(cluster.render(Details.none)).contains("(1 operators updated");
        cluster.mcoImage = "example.com/mco@sha256:1";
        assertThat(cluster.render(Details.none)).contains("Update to 1.1.0 successfully completed");
    }

    @Test
    void aClusterThatIsNotUpdatingSaysSo() {
        cluster.cvConditions.set(0, condition("Progressing", "False", "", "", STARTED));
        cluster.operator("dns", NEW);
        assertThat(cluster.render(Details.all)).isEqualTo("The cluster is not updating.\n");
    }

    @Test
    void withoutProgressingOrOperatorsThereIsNothingToAssess() {
        cluster.operator("dns", NEW);
        cluster.cvConditions.remove(0);
        assertThatThrownBy(cluster::assess)
                .hasMessage(
                        "no current Progressing info, see `oc describe clusterversion` for more"
                                + " details.");
        assertThatThrownBy(() -> new TestCluster().assess())
                .hasMessageContaining("no cluster operator information available");
    }

    @Test
    void aHealthyUpdateSaysItIsProceedingWell() {
        cluster.operator("dns", OLD);
        assertThat(cluster.render(Details.none))
                .endsWith(
                        "= Update Health =\n"
                                + "SINCE   LEVEL   IMPACT   MESSAGE\n"
                                + "30m     Info    None     Update is proceeding well\n");
    }

    @Test
    void insightIdsAreStableDnsLabels() {
        assertThat(InsightIds.of("co", "etcd")).isEqualTo("co-etcd");
        String long1 =
                InsightIds.of(
                        "node",
                        "ip-10-0-30-217.us-east-2.compute.internal-with-a-very-long-suffix-indeed");
        assertThat(long1)
                .matches("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
                .hasSizeLessThanOrEqualTo(63)
                .isEqualTo(
                        InsightIds.of(
                                "node",
                                "ip-10-0-30-217.us-east-2.compute.internal-with-a-very-long-suffix-indeed"))
                .isNotEqualTo(
                        InsightIds.of(
                                "node",
                                "ip-10-0-30-217.us-east-2.compute.internal-with-a-very-long-suffix-indeeD"));
    }
}
