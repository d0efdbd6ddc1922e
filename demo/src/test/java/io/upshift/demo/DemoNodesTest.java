package io.upshift.demo;

import io.upshift.core.conditions.Conditions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.schema.CrdSchema;
import io.upshift.core.pools.NodeAnnotations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo with nodes: the release's machine-config component brings pools and MachineConfigs, the real pool
 * controller of each release rolls them out through the real agents, and the update completes only once the
 * control-plane nodes run the new release, as the machine-config operator reports the version only then.
 */
class DemoNodesTest {

    @TempDir
    Path dir;

    @Test
    void theUpdateCompletesOnlyOnceTheControlPlaneNodesRunItAndTheWorkersFollow() throws Exception {
        try (DemoRun demo = new DemoRun(new DemoRun.Settings(4, 2, Duration.ofMillis(300), 5, dir, 2, 3), l -> { }).start()) {
            assertThat(demo.await(DemoRun.FROM, Duration.ofSeconds(60), () -> { })).isTrue();
            assertThat(demo.awaitNodes(DemoRun.FROM, Duration.ofSeconds(60), () -> { })).isTrue();
            assertThat(releases(demo, "master")).containsOnly(DemoRun.FROM);
            assertThat(releases(demo, "worker")).containsOnly(DemoRun.FROM);

            demo.requestUpdate();
            assertThat(demo.await(DemoRun.TO, Duration.ofSeconds(90), () -> { })).isTrue();
            // Completed means the machine-config operator reported the version: every control-plane node runs it.
            assertThat(releases(demo, "master")).containsOnly(DemoRun.TO);

            assertThat(demo.awaitNodes(DemoRun.TO, Duration.ofSeconds(60), () -> { })).isTrue();
            assertThat(releases(demo, "worker")).containsOnly(DemoRun.TO);
            for (Node n : demo.client().nodes().list().getItems()) {
                String name = n.getMetadata().getName();
                assertThat(Files.readString(dir.resolve("hosts/" + name + "/etc/upshift-demo/release"))).as(name).isEqualTo(DemoRun.TO);
            }
            ClusterOperator co = demo.client().resources(ClusterOperator.class).withName(DemoPayloads.MACHINE_CONFIG).get();
            assertThat(co.getStatus().getVersions()).anySatisfy(v -> assertThat(v.getVersion()).isEqualTo(DemoRun.TO));
            assertThat(CrdSchema.bundled("clusteroperators.config.openshift.io", "v1").violations(co)).isEmpty();

            // then a file changed under a None policy: every node takes it, none drained or rebooted
            ConfigChange.Result changed = demo.configChange(Duration.ofSeconds(60), () -> { });
            assertThat(changed.line()).isEqualTo("config change: 5 nodes updated, 0 drained, 0 rebooted");
            for (Node n : demo.client().nodes().list().getItems()) {
                assertThat(dir.resolve("hosts/" + n.getMetadata().getName() + ConfigChange.PATH)).content().startsWith("Welcome to the Upshift demo");
            }
            var configuration = demo.client().genericKubernetesResources(io.upshift.operator.cluster.MachineConfigurations.CONTEXT).withName("cluster").get();
            assertThat(CrdSchema.bundled("machineconfigurations.operator.openshift.io", "v1").violations(configuration)).isEmpty();
            for (MachineConfig mc : demo.client().resources(MachineConfig.class).list().getItems()) {
                assertThat(CrdSchema.bundled("machineconfigs.machineconfiguration.openshift.io", "v1").violations(mc)).isEmpty();
            }
        }
    }

    @Test
    void pausedWorkersOnTheOlderMinorBlockTheNextMinorUntilForced() throws Exception {
        try (DemoRun demo = new DemoRun(new DemoRun.Settings(4, 2, Duration.ofMillis(300), 9, dir, 2, 2), l -> { }).start()) {
            assertThat(demo.await(DemoRun.FROM, Duration.ofSeconds(60), () -> { })).isTrue();
            assertThat(demo.awaitNodes(DemoRun.FROM, Duration.ofSeconds(60), () -> { })).isTrue();
            demo.client().resources(MachineConfigPool.class).withName("worker").edit(p -> {
                p.getSpec().setPaused(true);
                return p;
            });

            // 4.18 -> 4.19 is allowed; the control plane moves, the paused workers stay on 4.18.
            demo.requestUpdate(null, demo.publish("4.19.0", List.of(DemoRun.FROM), true), false);
            assertThat(demo.await("4.19.0", Duration.ofSeconds(90), () -> { })).isTrue();
            assertThat(releases(demo, "master")).containsOnly("4.19.0");
            assertThat(releases(demo, "worker")).containsOnly(DemoRun.FROM);
            String gate = "One or more machine config pools are not ready for the next minor update: pool worker has 2 of 2 nodes on a minor older "
                    + "than 4.19, paused";
            await("the cluster not upgradeable").atMost(Duration.ofSeconds(30)).until(() -> {
                var upgradeable = Conditions.CLUSTER.find(demo.clusterVersion().getStatus().getConditions(), "Upgradeable");
                return upgradeable != null && "False".equals(upgradeable.getStatus()) && upgradeable.getMessage().contains(gate);
            });

            // 4.19 -> 4.20 is refused with the pools' message ...
            String release420 = demo.publish("4.20.0", List.of("4.19.0"), true);
            demo.requestUpdate(null, release420, false);
            await("the update refused").atMost(Duration.ofSeconds(30)).until(() -> {
                var accepted = Conditions.CLUSTER.find(demo.clusterVersion().getStatus().getConditions(), "ReleaseAccepted");
                return accepted != null && "PreconditionChecks".equals(accepted.getReason()) && accepted.getMessage().contains(gate);
            });
            assertThat(demo.clusterVersion().getStatus().getHistory().get(0).getVersion()).isEqualTo("4.19.0");

            // ... until forced: accepted, with the block recorded as an accepted risk.
            demo.requestUpdate(null, release420, true);
            await("the forced update accepted").atMost(Duration.ofSeconds(30)).until(
                    () -> "4.20.0".equals(demo.clusterVersion().getStatus().getHistory().get(0).getVersion()));
            assertThat(demo.clusterVersion().getStatus().getHistory().get(0).getAcceptedRisks()).contains(gate);
        }
    }

    /** The release whose controller rendered the config each node of the role runs. */
    static List<String> releases(DemoRun demo, String role) {
        return demo.client().nodes().withLabel("node-role.kubernetes.io/" + role).list().getItems().stream().map(n -> {
            String current = n.getMetadata().getAnnotations().get(NodeAnnotations.CURRENT_CONFIG);
            MachineConfig mc = demo.client().resources(MachineConfig.class).withName(current).get();
            return mc.getMetadata().getAnnotations().get(NodeAnnotations.RELEASE_IMAGE_VERSION);
        }).toList();
    }
}
