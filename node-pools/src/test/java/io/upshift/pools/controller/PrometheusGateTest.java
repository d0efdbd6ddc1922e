package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.upshift.graph.client.PromQLTarget;
import io.upshift.pools.model.HealthGates;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.testkit.BearerTokenFront;
import io.upshift.testkit.LocalPrometheus;
import io.upshift.testkit.TestCertificates;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: a pool's health gate on a Prometheus alert, asked of Debian's real {@code prometheus}
 * through what OpenShift puts in front of it (a TLS front signed by the service CA that lets only
 * the bearer token through, found at its Service's cluster IP), as the conditional risks ask it,
 * with the pool controller's own ServiceAccount and RBAC. The real controller and agents on the
 * embedded API server; Prometheus's time is the wall's.
 */
@Tag("e2e")
class PrometheusGateTest {
    static final String HOST = "thanos-querier.openshift-monitoring.svc.cluster.local";
    static final String RULES =
            "groups:\n"
                    + "- name: backup\n"
                    + "  rules:\n"
                    + "  - alert: BackupRunning\n"
                    + "    expr: backup_running > 0\n"
                    + "    labels: {severity: warning}\n";

    @TempDir Path hosts;
    @TempDir Path dir;

    @Test
    void anAlertFiringInPrometheusHoldsTheNextNodeUntilItResolves() throws Exception {
        Assumptions.assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/prometheus")),
                "prometheus is not installed (./test installs Debian's package)");
        AtomicReference<String> metrics = new AtomicReference<>("backup_running 0\n");
        TestCertificates serviceCa = TestCertificates.authority("openshift-service-serving-signer");
        Path ca = Files.writeString(dir.resolve("service-ca.crt"), serviceCa.pem());
        Path token = Files.writeString(dir.resolve("token"), "pools-token\n");
        try (LocalPrometheus prometheus =
                        LocalPrometheus.start(
                                Files.createDirectories(dir.resolve("prometheus")),
                                metrics::get,
                                RULES);
                BearerTokenFront thanos =
                        BearerTokenFront.start(
                                prometheus.url(), serviceCa.server(HOST), () -> "pools-token");
                PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            thanosService(h);
            h.pool("worker", 1, false);
            RolloutControlsTest.annotate(h, "worker", HealthGates.ALERTS, "BackupRunning");
            h.config("00-worker", "worker", "one", "os@sha256:1");
            h.node("worker-0", "worker", "zone-a", 10);
            h.node("worker-1", "worker", "zone-a", 9);
            h.startAgents();
            PromQLTarget target =
                    new PromQLTarget(
                            URI.create("https://" + HOST + ":" + thanos.port()),
                            false,
                            "openshift-monitoring",
                            "thanos-querier",
                            ca,
                            token);
            h.startController(
                    "4.19.0", Clock.systemUTC(), o -> o.withPromQL(target, Duration.ofMillis(500)));
            await("every node on the first config, the gate quiet")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.settled("worker"));
            String first = h.pool("worker").getSpec().getConfiguration().getName();
            assertThat(thanos.forwarded()).as("queries that passed the token check").isPositive();
            assertThat(thanos.refused()).isZero();

            metrics.set("backup_running 1\n");
            await("the alert firing in Prometheus")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> prometheus.alerts().contains("\"state\":\"firing\""));
            h.config("50-new", "worker", "new", "os@sha256:1"); // a new file: a new target
            await("the pool held by the alert")
                    .atMost(Duration.ofMinutes(1))
                    .until(
                            () ->
                                    h.conditionTrue("worker", "RolloutHeld")
                                            && "HealthGate"
                                                    .equals(
                                                            h.condition("worker", "RolloutHeld")
                                                                    .getReason()));
            String second = h.pool("worker").getSpec().getConfiguration().getName();
            assertThat(second).isNotEqualTo(first);
            assertThat(h.condition("worker", "RolloutHeld").getMessage())
                    .startsWith("Alert BackupRunning{")
                    .contains("severity=\"warning\"")
                    .endsWith(
                            " is firing, which the health gate \"BackupRunning\""
                                    + " (upshift.io/health-gate-alerts) matches: no new node"
                                    + " starts while it fires");
            assertThat(h.controller.scrape())
                    .contains(
                            "upshift_pool_rollout_held{pool=\"worker\",reason=\"HealthGate\"} 1\n");
            // passes and queries that saw the alert go by: no node told the new config
            long asked = thanos.forwarded();
            await("the gate asked again")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> thanos.forwarded() > asked + 2);
            assertThat(h.annotation("worker-0", NodeAnnotations.DESIRED_CONFIG)).isEqualTo(first);
            assertThat(h.annotation("worker-1", NodeAnnotations.DESIRED_CONFIG)).isEqualTo(first);

            metrics.set("backup_running 0\n");
            await("every node on the new config once the alert resolved")
                    .atMost(Duration.ofMinutes(2))
                    .until(
                            () ->
                                    h.settled("worker")
                                            && h.annotation(
                                                            "worker-1",
                                                            NodeAnnotations.CURRENT_CONFIG)
                                                    .equals(second));
            await("the hold lifted")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> "False".equals(h.condition("worker", "RolloutHeld").getStatus()));
            // a level pool asks Prometheus nothing
            long level = thanos.forwarded();
            long passes = h.controller.passes();
            await("more passes")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> h.controller.passes() > passes + 3);
            assertThat(thanos.forwarded()).isEqualTo(level);
        }
    }

    @Test
    void aPrometheusThatCannotBeReachedHoldsThePoolSayingSo() {
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            h.pool("worker", 1, false);
            RolloutControlsTest.annotate(h, "worker", HealthGates.QUERIES, "backups_running > 0");
            h.config("00-worker", "worker", "one", "os@sha256:1");
            h.node("worker-0", "worker", "zone-a", 10);
            h.startAgents();
            PromQLTarget nowhere =
                    new PromQLTarget(URI.create("http://127.0.0.1:1"), true, "", "", null, null);
            h.startController(
                    "4.19.0", Clock.systemUTC(), o -> o.withPromQL(nowhere, Duration.ofSeconds(1)));
            await("the pool held, saying why")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> h.conditionTrue("worker", "RolloutHeld"));
            assertThat(h.condition("worker", "RolloutHeld").getMessage())
                    .startsWith(
                            "Prometheus could not evaluate the health gate \"backups_running > 0\""
                                    + " (upshift.io/health-gate-queries): executing PromQL query:"
                                    + " Get \"http://127.0.0.1:1/api/v1/query?query=")
                    .endsWith("; no new node starts until it can");
            assertThat(h.annotation("worker-0", NodeAnnotations.DESIRED_CONFIG)).isNull();

            // a bad value degrades the pool, naming the annotation, and still touches nothing
            RolloutControlsTest.annotate(h, "worker", HealthGates.ALERTS, "Backup{x=1}");
            await("the pool degraded")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> h.conditionTrue("worker", "Degraded"));
            assertThat(h.condition("worker", "Degraded").getMessage())
                    .startsWith(
                            "annotation upshift.io/health-gate-alerts \"Backup{x=1}\": not an alert"
                                    + " selector");
            assertThat(h.annotation("worker-0", NodeAnnotations.DESIRED_CONFIG)).isNull();
        }
    }

    /** OpenShift's thanos-querier Service, its cluster IP where the TLS front listens. */
    static void thanosService(PoolHarness h) {
        h.client
                .namespaces()
                .resource(
                        new NamespaceBuilder()
                                .withNewMetadata()
                                .withName("openshift-monitoring")
                                .endMetadata()
                                .build())
                .create();
        h.client
                .services()
                .inNamespace("openshift-monitoring")
                .resource(
                        new ServiceBuilder()
                                .withNewMetadata()
                                .withName("thanos-querier")
                                .withNamespace("openshift-monitoring")
                                .endMetadata()
                                .withNewSpec()
                                .withClusterIP("127.0.0.1")
                                .addNewPort()
                                .withName("web")
                                .withPort(9091)
                                .endPort()
                                .endSpec()
                                .build())
                .create();
    }
}
