package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import io.upshift.graph.risk.PromQLSample;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pool's health gates on Prometheus: the annotations read into queries, bad values named, and
 * which answer holds the pool with what message.
 */
class PrometheusGatesTest {
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    static MachineConfigPool pool(Map<String, String> annotations) {
        return new MachineConfigPoolBuilder()
                .withNewMetadata()
                .withName("worker")
                .addToAnnotations(annotations)
                .endMetadata()
                .build();
    }

    static GateReading samples(PromQLSample... s) {
        return new GateReading.Samples(List.of(s), NOW);
    }

    @Test
    void alertSelectorsBecomeQueriesOfFiringAlerts() {
        HealthGates gates =
                HealthGates.of(
                        pool(
                                Map.of(
                                        HealthGates.ALERTS,
                                        "KubeNodeNotReady; {severity=\"critical\","
                                                + " namespace=~\"shop|db\"};"
                                                + " Backup{job!=\"x;y\"}")));
        assertThat(gates.promql())
                .containsExactly(
                        "ALERTS{alertstate=\"firing\",alertname=\"KubeNodeNotReady\"}",
                        "ALERTS{alertstate=\"firing\",severity=\"critical\",namespace=~\"shop|db\"}",
                        "ALERTS{alertstate=\"firing\",alertname=\"Backup\",job!=\"x;y\"}");
        assertThat(gates.pods()).isEmpty();
    }

    @Test
    void queriesAreSplitAtSemicolonsOutsideStrings() {
        HealthGates gates =
                HealthGates.of(
                        pool(
                                Map.of(
                                        HealthGates.QUERIES,
                                        "sum(kube_job_status_active{namespace=\"backup\"}) > 0;"
                                                + " up{job=\"a;b\"} == 0 ;")));
        assertThat(gates.promql())
                .containsExactly(
                        "sum(kube_job_status_active{namespace=\"backup\"}) > 0",
                        "up{job=\"a;b\"} == 0");
    }

    @Test
    void badValuesNameTheirAnnotation() {
        assertThatThrownBy(() -> HealthGates.of(pool(Map.of(HealthGates.ALERTS, "Kube-Node"))))
                .hasMessage(
                        "annotation upshift.io/health-gate-alerts \"Kube-Node\": not an alert"
                                + " selector: \"Kube-Node\" is not an alert name");
        assertThatThrownBy(
                        () ->
                                HealthGates.of(
                                        pool(Map.of(HealthGates.ALERTS, "A{severity=critical}"))))
                .hasMessageContaining("\"severity=critical\" is not a label matcher");
        assertThatThrownBy(
                        () ->
                                HealthGates.of(
                                        pool(
                                                Map.of(
                                                        HealthGates.ALERTS,
                                                        "A{alertstate=\"pending\"}"))))
                .hasMessageContaining("label alertstate is the gate's own");
        assertThatThrownBy(() -> HealthGates.of(pool(Map.of(HealthGates.ALERTS, "{}"))))
                .hasMessageContaining("an alert selector names an alert or a label");
        assertThatThrownBy(() -> HealthGates.of(pool(Map.of(HealthGates.QUERIES, "sum(up"))))
                .hasMessage(
                        "annotation upshift.io/health-gate-queries \"sum(up\": not a PromQL"
                                + " expression: \"sum(up\": ( is never closed");
        assertThatThrownBy(() -> HealthGates.of(pool(Map.of(HealthGates.QUERIES, "up{a=\"b}"))))
                .hasMessageContaining("a quoted string does not end");
        assertThat(HealthGates.of(pool(Map.of(HealthGates.QUERIES, " ; ")))).isNull();
    }

    @Test
    void aFiringAlertHoldsNamingItsLabels() {
        HealthGates gates = HealthGates.of(pool(Map.of(HealthGates.ALERTS, "Backup")));
        String q = gates.promql().get(0);
        HealthGates.Verdict v =
                gates.check(
                        List.of(),
                        Map.of(
                                q,
                                samples(
                                        new PromQLSample(
                                                Map.of(
                                                        "__name__", "ALERTS",
                                                        "alertname", "Backup",
                                                        "alertstate", "firing",
                                                        "namespace", "shop"),
                                                "1"))));
        assertThat(v.fired()).isTrue();
        assertThat(v.hold().reason()).isEqualTo("HealthGate");
        assertThat(v.hold().message())
                .isEqualTo(
                        "Alert Backup{namespace=\"shop\"} is firing, which the health gate"
                                + " \"Backup\" (upshift.io/health-gate-alerts) matches: no new"
                                + " node starts while it fires");
        assertThat(gates.check(List.of(), Map.of(q, samples()))).isNull();
    }

    @Test
    void aQueryHoldsWhileItAnswersNonZero() {
        HealthGates gates = HealthGates.of(pool(Map.of(HealthGates.QUERIES, "backups_running")));
        String q = "backups_running";
        assertThat(
                        gates.check(
                                List.of(),
                                Map.of(q, samples(new PromQLSample(Map.of("job", "b"), "0")))))
                .isNull();
        HealthGates.Verdict v =
                gates.check(
                        List.of(), Map.of(q, samples(new PromQLSample(Map.of("job", "b"), "2"))));
        assertThat(v.hold().message())
                .isEqualTo(
                        "The health gate \"backups_running\" (upshift.io/health-gate-queries)"
                                + " answers 2 for {job=\"b\"}: no new node starts while it answers"
                                + " a value other than 0");
    }

    @Test
    void aPrometheusThatDoesNotAnswerHoldsTooButHasNotFired() {
        HealthGates gates =
                HealthGates.of(
                        pool(Map.of(HealthGates.ALERTS, "Backup", HealthGates.QUERIES, "x")));
        String alert = gates.promql().get(0);
        HealthGates.Verdict failed =
                gates.check(
                        List.of(),
                        Map.of(
                                alert,
                                new GateReading.Failed(
                                        "executing PromQL query: client_error: client error: 401",
                                        NOW),
                                "x",
                                samples()));
        assertThat(failed.fired()).isFalse();
        assertThat(failed.hold().message())
                .isEqualTo(
                        "Prometheus could not evaluate the health gate \"Backup\""
                                + " (upshift.io/health-gate-alerts): executing PromQL query:"
                                + " client_error: client error: 401; no new node starts until it"
                                + " can");
        // one that fires wins over one that could not be asked
        HealthGates.Verdict fired =
                gates.check(
                        List.of(),
                        Map.of(
                                alert,
                                new GateReading.Failed("down", NOW),
                                "x",
                                samples(new PromQLSample(Map.of(), "1"))));
        assertThat(fired.fired()).isTrue();
        // not asked yet: held, fail safe
        assertThat(gates.check(List.of(), Map.of()).hold().message())
                .isEqualTo(
                        "The health gate \"Backup\" (upshift.io/health-gate-alerts) has not been"
                                + " evaluated yet");
    }
}
