package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.upshift.api.json.Mappers;
import io.upshift.pools.agent.AgentOptions;
import io.upshift.pools.agent.NodeAgent;
import io.upshift.runtime.metrics.MetricsServer;
import io.upshift.runtime.metrics.ScrapeAccess;
import io.upshift.runtime.metrics.ServingCertificate;
import io.upshift.testkit.AcceleratedClock;
import io.upshift.testkit.LocalPrometheus;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: Debian's real {@code prometheus} scrapes the running pool controller's and agent's
 * /metrics (over HTTPS, their self-signed certificates), evaluates deploy/monitoring/'s rules, and
 * an alert goes firing when a node's drain is blocked by a PodDisruptionBudget and resolves once
 * the budget allows the eviction. The agent's clock runs 120 times faster than the wall's, so its
 * ten minutes of refusals pass in seconds; Prometheus's own time is the wall's.
 */
@Tag("e2e")
class DrainAlertTest {
    static final Path MONITORING = Path.of("../deploy/monitoring");
    static final String ALERT = "UpdateNodeDrainBlockedByPDB";

    @TempDir Path hosts;
    @TempDir Path prometheusDir;

    @Test
    void aDrainHeldByABudgetFiresTheAlertAndItResolvesWhenTheBudgetAllows() throws Exception {
        Assumptions.assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/prometheus")), "prometheus is not installed");
        try (PoolHarness h = new PoolHarness(hosts)) {
            AgentOptions fast = PoolHarness.FAST;
            h.agentOptions =
                    new AgentOptions(
                            Duration.ofDays(1), // the drain never gives up here
                            fast.drainRetry(),
                            fast.drainSlowRetry(),
                            fast.degradedRetry(),
                            fast.poll());
            AcceleratedClock clock = new AcceleratedClock(Instant.now(), 120);
            h.pool("worker", 1, false);
            h.config("00-worker", "worker", "base", "os@1");
            h.node("w0", "worker", "a", 10);
            NodeAgent agent = h.startAgent("w0", clock);
            h.startController("4.19.0");
            await("the first config on w0")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("worker"));
            h.createPod("web-0", "w0", "web", false);
            h.client
                    .policy()
                    .v1()
                    .podDisruptionBudget()
                    .inNamespace("shop")
                    .resource(budget(1))
                    .create();

            ServingCertificate cert =
                    ServingCertificate.selfSigned(List.of("127.0.0.1"), Instant.now());
            InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
            try (MetricsServer agentMetrics =
                            MetricsServer.start(
                                    any, agent.metrics()::scrape, ScrapeAccess.ANYONE, cert);
                    MetricsServer controllerMetrics =
                            MetricsServer.start(
                                    any, h.controller::scrape, ScrapeAccess.ANYONE, cert);
                    LocalPrometheus prometheus =
                            LocalPrometheus.scraping(
                                    prometheusDir,
                                    List.of(
                                            new LocalPrometheus.Target(
                                                    "127.0.0.1:" + agentMetrics.port(),
                                                    Map.of(
                                                            "job", "machine-config-daemon",
                                                            "namespace",
                                                                    "openshift-machine-config-operator",
                                                            "node", "w0")),
                                            new LocalPrometheus.Target(
                                                    "127.0.0.1:" + controllerMetrics.port(),
                                                    Map.of(
                                                            "job", "machine-config-controller",
                                                            "namespace",
                                                                    "openshift-machine-config-operator",
                                                            "node", "master-0"))),
                                    ruleFiles())) {
                assertThat(alerting(prometheus)).isEmpty();

                h.config("50-new", "worker", "new", "os@1"); // a file: drain and reboot
                await("the alert firing for w0, held by shop/web")
                        .atMost(Duration.ofMinutes(2))
                        .until(() -> alerting(prometheus).contains("w0 shop/web firing"));
                // the controller's metrics are scraped too: the pool shows its node unavailable
                assertThat(
                                prometheus.get(
                                        "/api/v1/query?query=mco_unavailable_machine_count%7Bpool%3D%22worker%22%7D"))
                        .contains("\"1\"]");

                h.client
                        .policy()
                        .v1()
                        .podDisruptionBudget()
                        .inNamespace("shop")
                        .withName("web")
                        .edit(b -> budget(0));
                await("the alert resolved")
                        .atMost(Duration.ofMinutes(2))
                        .until(() -> alerting(prometheus).isEmpty());
                await("w0 updated").atMost(Duration.ofMinutes(2)).until(() -> h.settled("worker"));
            }
        }
    }

    /** The alert's instances, "node budget state" each. */
    static List<String> alerting(LocalPrometheus prometheus) throws Exception {
        List<String> out = new ArrayList<>();
        JsonNode alerts = Mappers.JSON.readTree(prometheus.alerts()).path("data").path("alerts");
        for (JsonNode a : alerts) {
            if (!ALERT.equals(a.path("labels").path("alertname").asText())) continue;
            out.add(
                    a.path("labels").path("node").asText()
                            + " "
                            + a.path("labels").path("budget").asText()
                            + " "
                            + a.path("state").asText());
        }
        return out;
    }

    static PodDisruptionBudget budget(int minAvailable) {
        return new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                .withName("web")
                .withNamespace("shop")
                .endMetadata()
                .withNewSpec()
                .withMinAvailable(new IntOrString(minAvailable))
                .withNewSelector()
                .addToMatchLabels("app", "web")
                .endSelector()
                .endSpec()
                .build();
    }

    /**
     * deploy/monitoring/'s PrometheusRules as plain rule files, as a cluster's Prometheus loads
     * them.
     */
    List<Path> ruleFiles() throws Exception {
        List<Path> out = new ArrayList<>();
        try (var files = Files.list(MONITORING)) {
            for (Path f :
                    files.filter(p -> p.getFileName().toString().endsWith("-rules.yaml"))
                            .sorted()
                            .toList()) {
                ArrayNode groups = Mappers.YAML.createArrayNode();
                try (var docs =
                        Mappers.YAML.readerFor(JsonNode.class).readValues(Files.readString(f))) {
                    while (docs.hasNext()) {
                        JsonNode d = (JsonNode) docs.next();
                        d.path("spec").path("groups").forEach(groups::add);
                    }
                }
                Path rules = prometheusDir.resolve(f.getFileName());
                Files.writeString(
                        rules,
                        Mappers.YAML.writeValueAsString(
                                Mappers.YAML.createObjectNode().set("groups", groups)));
                out.add(rules);
            }
        }
        return out;
    }
}
