package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.upshift.status.command.StatusCommand;
import io.upshift.status.synthetic.SyntheticCluster;
import io.upshift.testkit.BearerTokenFront;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.LocalPrometheus;
import io.upshift.testkit.TestCertificates;
import io.upshift.testkit.ThanosRoute;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift status} and {@code upshift recommend} on a cluster with OpenShift's monitoring
 * find its alerts as oc does, without {@code --alerts-url}: the Route {@code
 * openshift-monitoring/thanos-querier} on the embedded API server, in front of it Debian's real
 * {@code prometheus} (alerting rules evaluated) behind {@link BearerTokenFront}, which asks for the
 * kubeconfig's own token. Without monitoring, both say the alerts were not read, as oc's do. The
 * time the status ages its data by is read after the data.
 */
@Tag("e2e")
class ClusterAlertsTest {

    static final String RULES =
            "groups:\n"
                    + "- name: upshift-test\n"
                    + "  rules:\n"
                    + "  - alert: PodDisruptionBudgetAtLimit\n"
                    + "    expr: vector(1)\n"
                    + "    labels: {severity: warning, namespace: openshift-etcd,"
                    + " poddisruptionbudget: etcd-guard-pdb}\n"
                    + "    annotations: {summary: The pod disruption budget is preventing further"
                    + " disruption to pods.}\n"
                    + "  - alert: TestCritical\n"
                    + "    expr: vector(1)\n"
                    + "    labels: {severity: critical, namespace: openshift-monitoring}\n"
                    + "    annotations: {summary: Something critical.}\n";

    @TempDir static Path shared;
    @TempDir Path dir;
    static LocalPrometheus prometheus;
    static BearerTokenFront thanos;
    static final AtomicReference<String> token = new AtomicReference<>();

    @BeforeAll
    static void startMonitoring() throws Exception {
        prometheus =
                LocalPrometheus.start(
                        Files.createDirectories(shared.resolve("prometheus")),
                        "up_test 1\n",
                        RULES);
        thanos =
                BearerTokenFront.start(
                        prometheus.url(),
                        TestCertificates.authority("ingress-operator").server("127.0.0.1"),
                        token::get);
    }

    @AfterAll
    static void stopMonitoring() {
        if (thanos != null) thanos.close();
        if (prometheus != null) prometheus.close();
    }

    @AfterEach
    void realClock() {
        StatusCommand.clock = Clock.systemUTC();
    }

    /** The embedded API server holding a cluster mid-update, its kubeconfig in {@code dir}. */
    private String midUpdate(EmbeddedApiServer server) throws Exception {
        for (HasMetadata o :
                new SyntheticCluster(4, 1, 6, 0.5, Instant.now().minus(Duration.ofMinutes(20)))
                        .objects()) server.client().resource(o).create();
        token.set(server.adminToken());
        return Files.writeString(dir.resolve("kubeconfig"), server.kubeconfig()).toString();
    }

    @Test
    void statusAndRecommendReadTheClustersMonitoringAsTheUser() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer()) {
            String kubeconfig = midUpdate(server);
            ThanosRoute.install(server.client(), "127.0.0.1:" + thanos.port());

            CliRun.Result status = run("status", "--kubeconfig", kubeconfig, "--details=health");
            assertThat(status.code()).as(status.err()).isZero();
            assertThat(status.out())
                    .startsWith("= Control Plane =\n")
                    .doesNotContain("Unable to fetch alerts")
                    .contains("The pod disruption budget is preventing further disruption to pods.")
                    .contains("Something critical.");

            CliRun.Result recommend = run("recommend", "--kubeconfig", kubeconfig);
            assertThat(recommend.out())
                    .doesNotContain("Failed to check for at least some preconditions")
                    .contains("TestCritical")
                    .contains("PodDisruptionBudgetAtLimit");
            assertThat(thanos.refused()).isZero();
            assertThat(thanos.forwarded()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void withoutMonitoringBothSayTheAlertsWereNotRead() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer()) {
            String kubeconfig = midUpdate(server);
            String why =
                    "failed to get alerts from Thanos: the server could not find the requested"
                            + " resource (get routes.route.openshift.io thanos-querier)";

            CliRun.Result status = run("status", "--kubeconfig", kubeconfig);
            assertThat(status.code()).as(status.err()).isZero();
            assertThat(status.out())
                    .startsWith(
                            "Unable to fetch alerts, ignoring alerts in 'Update Health':  "
                                    + why
                                    + "\n= Control Plane =\n");

            CliRun.Result recommend = run("recommend", "--kubeconfig", kubeconfig);
            assertThat(recommend.out())
                    .contains("Failed to check for at least some preconditions: " + why + "\n");
        }
    }

    /**
     * The clock is read after every request the status made, so that nothing it ages (a condition
     * that changed while the cluster was being read) is newer than the time it ages it by.
     */
    @Test
    void theTimeAgesAreCountedToIsReadAfterTheCluster() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer()) {
            String kubeconfig = midUpdate(server);
            List<Integer> requestsAtRead = new ArrayList<>();
            StatusCommand.clock =
                    new Clock() {
                        @Override
                        public ZoneId getZone() {
                            return ZoneId.of("UTC");
                        }

                        @Override
                        public Clock withZone(ZoneId zone) {
                            return this;
                        }

                        @Override
                        public Instant instant() {
                            requestsAtRead.add(server.requests().size());
                            return Instant.now();
                        }
                    };
            CliRun.Result status = run("status", "--kubeconfig", kubeconfig);
            assertThat(status.code()).as(status.err()).isZero();
            int after = server.requests().size();
            assertThat(requestsAtRead).isNotEmpty();
            assertThat(requestsAtRead.get(requestsAtRead.size() - 1)).isEqualTo(after);
        }
    }
}
