package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.OneFileConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad pool specs, bad MachineConfigs and failing host writes: named, and nothing half-done. */
@Tag("e2e")
class PoolBadInputTest {

    @TempDir Path hosts;

    @Test
    void anInvalidMaxUnavailableDegradesThePoolNamingTheFieldAndTouchesNoNode() throws Exception {
        for (Object bad : List.of("150%", "-1", "abc", -1)) {
            try (PoolHarness h =
                    new PoolHarness(hosts.resolve(String.valueOf(bad).replace("%", "pc")))) {
                h.pool("worker", bad, false);
                h.config("00-worker", "worker", "one", "os@1");
                h.node("w0", "worker", "a", 1);
                h.startController("4.19.0");
                await("the pool degraded for " + bad)
                        .atMost(Duration.ofSeconds(60))
                        .until(
                                () ->
                                        h.conditionTrue("worker", "Degraded")
                                                && h.condition("worker", "Degraded")
                                                        .getMessage()
                                                        .startsWith("spec.maxUnavailable"));
                assertThat(h.condition("worker", "Degraded").getMessage())
                        .contains(String.valueOf(bad));
                assertThat(h.annotation("w0", NodeAnnotations.DESIRED_CONFIG)).isNull();
            }
        }
    }

    @Test
    void aConfigWritingOutsideItsPathIsRenderDegradedAndNothingOfItIsApplied() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            String before = h.settledPoolOfOne("worker", "w0", "one", "os@1", "4.19.0");
            int renderedBefore = rendered(h);

            h.client
                    .resources(MachineConfig.class)
                    .resource(
                            OneFileConfig.of(
                                    "99-worker-escape", "worker", "/etc/../../outside", "pwned"))
                    .create();
            await("RenderDegraded")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.conditionTrue("worker", "RenderDegraded"));
            assertThat(h.condition("worker", "RenderDegraded").getMessage())
                    .isEqualTo(
                            "Failed to render configuration for pool worker: MachineConfig"
                                    + " 99-worker-escape: file path \"/etc/../../outside\" contains"
                                    + " \"..\"");
            assertThat(h.pool("worker").getSpec().getConfiguration().getName()).isEqualTo(before);
            assertThat(rendered(h)).isEqualTo(renderedBefore);
            assertThat(h.annotation("w0", NodeAnnotations.DESIRED_CONFIG)).isEqualTo(before);
            assertThat(hosts.resolve("outside")).doesNotExist();
        }
    }

    @Test
    void aHostWriteFailureDegradesTheNodeWithTheReasonAndLeavesNoPartialFile() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.pool("worker", 1, false);
            h.config("00-worker", "worker", "one", "os@1");
            h.node("w0", "worker", "a", 1);
            Files.createDirectories(hosts.resolve("w0/etc"));
            Files.writeString(
                    hosts.resolve("w0/etc/upshift-test"),
                    "a file where the config needs a directory");
            h.startAgents();
            h.startController("4.19.0");
            await("w0 Degraded")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    NodeAnnotations.DEGRADED.equals(
                                            h.annotation("w0", NodeAnnotations.STATE)));
            assertThat(h.annotation("w0", NodeAnnotations.REASON))
                    .startsWith("failed to apply rendered-worker-")
                    .contains("cannot write /etc/upshift-test/00-worker");
            assertThat(h.annotation("w0", NodeAnnotations.CURRENT_CONFIG)).isNull();
            try (Stream<Path> files = Files.walk(hosts.resolve("w0"))) {
                assertThat(files.map(Path::toString))
                        .noneMatch(p -> p.endsWith(".upshift-new"))
                        .noneMatch(p -> p.endsWith("pending-config"));
            }
            assertThat(h.machines.get("w0").reboots()).isZero();
        }
    }

    static int rendered(PoolHarness h) {
        return (int)
                h.client.resources(MachineConfig.class).list().getItems().stream()
                        .filter(mc -> mc.getMetadata().getName().startsWith("rendered-"))
                        .count();
    }
}
