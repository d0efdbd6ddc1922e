package io.upshift.demo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.json.Mappers;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.PoolMembers;
import io.upshift.status.estimate.RunLevelTimes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test: records what Upshift's estimate rests on during a run of the default demo (30
 * operators over 10 run-levels, 2 s rollouts, 3 control-plane and 6 worker nodes; with {@code
 * -Dupshift.recordDemoJar=cli/target/upshift-cli.jar} (built by {@code package}) self-hosting as
 * {@code ./upshift demo} runs, else every controller in this JVM) into the JSON file named by
 * {@code -Dupshift.recordDemoTimings=FILE}: when the update was asked for and when its last node
 * was done, the run-level times the controller kept, and per pool its maxUnavailable and each
 * node's update times at install and in the update. {@code update-status}'s DemoTimingsReplayTest
 * replays the file. Run with {@code ./mvnw -o test -pl demo -am -Dtest=DemoTimingsRecorder
 * -Dsurefire.failIfNoSpecifiedTests=false
 * -Dupshift.recordDemoTimings=$PWD/update-status/src/test/resources/estimate/demo-timings.json}.
 */
@EnabledIfSystemProperty(named = "upshift.recordDemoTimings", matches = ".+")
class DemoTimingsRecorder {
    @TempDir Path dir;

    @Test
    void recordTheDefaultDemo() throws Exception {
        Path out = Path.of(System.getProperty("upshift.recordDemoTimings"));
        String jar = System.getProperty("upshift.recordDemoJar", "");
        DemoRun run =
                new DemoRun(
                        new DemoRun.Settings(30, 10, Duration.ofSeconds(2), 1, dir, 3, 6)
                                .withSelfHosting(
                                        jar.isEmpty() ? null : Path.of(jar).toAbsolutePath()),
                        l -> {});
        try (DemoRun demo = run.start()) {
            if (!demo.admin().await(demo.from(), Duration.ofMinutes(3), () -> {})
                    || !demo.admin().awaitNodes(demo.from(), Duration.ofMinutes(3), () -> {})) {
                throw new AssertionError("the install did not complete");
            }
            Map<String, Map<String, String>> atInstall = new HashMap<>();
            demo.cluster()
                    .client()
                    .nodes()
                    .list()
                    .getItems()
                    .forEach(n -> atInstall.put(n.getMetadata().getName(), annotations(n)));
            demo.requestUpdate();
            Instant requested = Instant.now();
            if (!demo.admin().await(demo.to(), Duration.ofMinutes(3), () -> {})
                    || !demo.admin().awaitNodes(demo.to(), Duration.ofMinutes(3), () -> {})) {
                throw new AssertionError("the update did not complete");
            }
            ObjectNode record = Mappers.JSON.createObjectNode();
            record.put("requestedAt", RunLevelTimes.format(requested));
            record.put("endedAt", RunLevelTimes.format(demo.admin().lastNodeDone().orElseThrow()));
            record.set(
                    "runLevels",
                    Mappers.JSON.readTree(
                            RunLevelTimes.of(demo.admin().clusterVersion()).toAnnotation()));
            ArrayNode pools = record.putArray("pools");
            for (MachineConfigPool p :
                    demo.cluster().client().resources(MachineConfigPool.class).list().getItems()) {
                ObjectNode pool =
                        pools.addObject()
                                .put("name", p.getMetadata().getName())
                                .put(
                                        "maxUnavailable",
                                        p.getSpec().getMaxUnavailable() == null
                                                ? 1
                                                : p.getSpec().getMaxUnavailable().getIntVal());
                ArrayNode nodes = pool.putArray("nodes");
                for (Node n :
                        demo.cluster()
                                .client()
                                .nodes()
                                .withLabel("node-role.kubernetes.io/" + p.getMetadata().getName())
                                .list()
                                .getItems()) {
                    Map<String, String> before = atInstall.get(n.getMetadata().getName()),
                            after = annotations(n);
                    nodes.addObject()
                            .put("name", n.getMetadata().getName())
                            .put(
                                    "zone",
                                    n.getMetadata()
                                            .getLabels()
                                            .getOrDefault(PoolMembers.ZONE_LABEL, ""))
                            .put("created", n.getMetadata().getCreationTimestamp())
                            .put("installStartedAt", before.get(NodeAnnotations.UPDATE_STARTED_AT))
                            .put("installDoneAt", before.get(NodeAnnotations.UPDATE_DONE_AT))
                            .put("startedAt", after.get(NodeAnnotations.UPDATE_STARTED_AT))
                            .put("doneAt", after.get(NodeAnnotations.UPDATE_DONE_AT));
                }
            }
            Files.createDirectories(out.getParent());
            Files.writeString(
                    out,
                    Mappers.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(record)
                            + "\n");
        }
    }

    private static Map<String, String> annotations(Node n) {
        return n.getMetadata().getAnnotations() == null
                ? Map.of()
                : n.getMetadata().getAnnotations();
    }
}
