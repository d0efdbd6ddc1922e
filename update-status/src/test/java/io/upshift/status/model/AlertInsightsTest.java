package io.upshift.status.model;

import static io.upshift.status.model.TestCluster.NEW;
import static io.upshift.status.model.TestCluster.NOW;
import static io.upshift.status.model.TestCluster.OLD;
import static io.upshift.status.model.TestCluster.STARTED;
import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.api.update.HealthInsight;
import io.upshift.api.update.ImpactLevel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertInsightsTest {
    private static Alert alert(
            String name,
            String severity,
            String state,
            int minutesAfterStart,
            String description,
            String message) {
        return new Alert(
                name,
                "ns",
                severity,
                state,
                STARTED.plus(Duration.ofMinutes(minutesAfterStart)),
                "",
                description,
                message,
                "",
                Map.of());
    }

    private static List<HealthInsight> insights(Alert... alerts) {
        TestCluster cluster = new TestCluster().operator("etcd", NEW).operator("dns", OLD);
        cluster.alerts = List.of(alerts);
        return UpdateAssessment.health(cluster.assess());
    }

    @Test
    void showsAlertsFiringSinceTheUpdateStarted() {
        assertThat(insights(alert("KubePodNotReady", "warning", "firing", 5, "pod x", "")))
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.impact().summary())
                                    .isEqualTo("Alert is firing: KubePodNotReady");
                            assertThat(h.impact().description())
                                    .isEqualTo(
                                            "Alert started firing during the update. The alert"
                                                    + " description is: pod x");
                            assertThat(h.impact().level()).isEqualTo(ImpactLevel.Warning);
                            assertThat(h.remediation().reference())
                                    .isEqualTo("<alert does not have a runbook_url annotation>");
                            assertThat(h.scope().resources().get(0).namespace()).isEqualTo("ns");
                        });
    }

    @Test
    void leavesOutOldPendingAndInformationalAlertsButKeepsKnownDisruptionBudgetOnes() {
        assertThat(
                        insights(
                                alert("OldNews", "warning", "firing", -60, "", ""),
                                alert("NotYet", "critical", "pending", 5, "", ""),
                                alert("FYI", "info", "firing", 5, "", ""),
                                alert(
                                        "PodDisruptionBudgetAtLimit",
                                        "critical",
                                        "firing",
                                        -60,
                                        "d",
                                        "m")))
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.impact().level()).isEqualTo(ImpactLevel.Critical);
                            assertThat(h.impact().description())
                                    .isEqualTo(
                                            "Alert known to affect updates has been firing since"
                                                    + " before the update started. The alert"
                                                    + " description is: d | m");
                        });
    }

    @Test
    void saysWhenAnAlertHasNoDescription() {
        assertThat(insights(alert("Quiet", "warning", "firing", 1, "", "")))
                .singleElement()
                .satisfies(
                        h ->
                                assertThat(h.impact().description())
                                        .endsWith(" The alert has no description."));
        assertThat(NOW).isAfter(STARTED);
    }
}
