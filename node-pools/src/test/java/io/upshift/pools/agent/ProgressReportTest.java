package io.upshift.pools.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNodeBuilder;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An idle agent whose MachineConfigNode is missing (deleted mid-update, made anew by the pool
 * controller only later) looks for it again soon, then less and less often: the object made anew
 * gets the node's report within seconds, and a cluster that never makes one costs a handful of
 * reads, then one each ten minutes.
 */
class ProgressReportTest {
    private static final String CONFIG = "rendered-worker-1";

    @Test
    void aMissingObjectIsLookedForSoonThenLessOften() {
        try (EmbeddedApiServer server =
                new EmbeddedApiServer()
                        .installCrds("machineconfignodes.machineconfiguration.openshift.io")) {
            KubernetesClient client = server.client();
            Node node =
                    client.nodes()
                            .resource(
                                    new NodeBuilder()
                                            .withNewMetadata()
                                            .withName("w0")
                                            .addToAnnotations(
                                                    NodeAnnotations.CURRENT_CONFIG, CONFIG)
                                            .addToAnnotations(
                                                    NodeAnnotations.DESIRED_CONFIG, CONFIG)
                                            .endMetadata()
                                            .build())
                            .create();
            SettableClock clock = new SettableClock(Instant.parse("2026-11-27T06:00:00Z"));

            // deleted mid-update: the agent finds none, goes idle, and the pool controller makes
            // the object anew 15 s later; it gets the report within the next 30 s
            ProgressReport report = new ProgressReport(client, "w0", clock);
            report.idle(node, List.of());
            clock.advance(Duration.ofSeconds(10));
            report.idle(node, List.of());
            clock.advance(Duration.ofSeconds(5));
            client.resources(MachineConfigNode.class).resource(mcn()).create();
            for (int i = 0; i < 3 && status(client) == null; i++) {
                clock.advance(Duration.ofSeconds(10));
                report.idle(node, List.of());
            }
            assertThat(status(client)).as("the report in the object made anew").isNotNull();

            // a cluster that never makes one: idle every 10 s (the agent's poll) for an hour
            client.resources(MachineConfigNode.class).withName("w0").delete();
            ProgressReport never = new ProgressReport(client, "w0", clock);
            int before = reads(server);
            for (int i = 0; i < 360; i++) {
                never.idle(node, List.of());
                clock.advance(Duration.ofSeconds(10));
            }
            // 10, 20, 40, ... 320 s apart, then every 10 minutes: about a dozen in the hour
            assertThat(reads(server) - before).isBetween(8, 16);
        }
    }

    private static MachineConfigNode mcn() {
        return new MachineConfigNodeBuilder()
                .withNewMetadata()
                .withName("w0")
                .endMetadata()
                .withNewSpec()
                .withNewNode("w0")
                .withNewPool("worker")
                .withNewConfigVersion(CONFIG)
                .endSpec()
                .build();
    }

    private static Object status(KubernetesClient client) {
        MachineConfigNode m = client.resources(MachineConfigNode.class).withName("w0").get();
        return m.getStatus() == null ? null : m.getStatus().getConfigVersion();
    }

    private static int reads(EmbeddedApiServer server) {
        return server.requests()
                .matching(
                        r ->
                                r.method().equals("GET")
                                        && r.path().contains("/machineconfignodes/w0"))
                .size();
    }
}
