package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.schema.CrdSchema;
import io.upshift.base.conditions.Conditions;
import io.upshift.pools.controller.MachineConfigurations;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.RequiredPools;
import io.upshift.pools.templates.BaseConfigs;
import io.upshift.testkit.Conflicts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo with nodes: the release's machine-config component brings pools and MachineConfigs, the
 * real pool controller of each release rolls them out through the real agents, and the update
 * completes only once the control-plane nodes run the new release, as the machine-config operator
 * reports the version only then.
 */
@Tag("e2e")
class DemoNodesTest {

    @TempDir Path dir;

    @Test
    void theUpdateCompletesOnlyOnceTheControlPlaneNodesRunItAndTheWorkersFollow() throws Exception {
        try (DemoRun demo =
                new DemoRun(
                                new DemoRun.Settings(4, 2, Duration.ofMillis(300), 5, dir, 2, 3),
                                l -> {})
                        .start()) {
            assertThat(demo.admin().await(DemoRun.FROM, Duration.ofSeconds(60), () -> {})).isTrue();
            assertThat(demo.admin().awaitNodes(DemoRun.FROM, Duration.ofSeconds(60), () -> {}))
                    .isTrue();
            assertThat(releases(demo, "master")).containsOnly(DemoRun.FROM);
            assertThat(releases(demo, "worker")).containsOnly(DemoRun.FROM);
            assertThat(
                            demo.cluster()
                                    .client()
                                    .resources(MachineConfigPool.class)
                                    .withName("master")
                                    .get()
                                    .getMetadata()
                                    .getLabels())
                    .containsKey(RequiredPools.LABEL);

            demo.requestUpdate();
            assertThat(demo.admin().await(DemoRun.TO, Duration.ofSeconds(90), () -> {})).isTrue();
            // Completed means the machine-config operator reported the version: every control-plane
            // node runs it.
            assertThat(releases(demo, "master")).containsOnly(DemoRun.TO);

            assertThat(demo.admin().awaitNodes(DemoRun.TO, Duration.ofSeconds(60), () -> {}))
                    .isTrue();
            assertThat(releases(demo, "worker")).containsOnly(DemoRun.TO);
            for (Node n : demo.cluster().client().nodes().list().getItems()) {
                String name = n.getMetadata().getName();
                assertThat(
                                Files.readString(
                                        dir.resolve("hosts/" + name + "/etc/upshift-demo/release")))
                        .as(name)
                        .isEqualTo(DemoRun.TO);
                assertThat(
                                dir.resolve(
                                        "hosts/"
                                                + name
                                                + "/etc/systemd/system/kubelet.service.d/10-upshift-demo.conf"))
                        .as(name)
                        .content()
                        .contains(
                                "UPSHIFT_RELEASE="
                                        + DemoRun.TO
                                        + " UPSHIFT_OS=quay.example/upshift-demo/node-os:"
                                        + DemoRun.TO);
            }
            // the payload ships templates, no MachineConfigs: the base configs are the pool
            // controller's, of the new release
            for (String base :
                    List.of("00-master", "00-worker", "01-master-kubelet", "01-worker-kubelet")) {
                assertThat(
                                demo.cluster()
                                        .client()
                                        .resources(MachineConfig.class)
                                        .withName(base)
                                        .get()
                                        .getMetadata()
                                        .getAnnotations())
                        .as(base)
                        .containsEntry(BaseConfigs.GENERATED_BY, DemoRun.TO);
            }
            ClusterOperator co =
                    demo.cluster()
                            .client()
                            .resources(ClusterOperator.class)
                            .withName(DemoPayloads.MACHINE_CONFIG)
                            .get();
            assertThat(co.getStatus().getVersions())
                    .anySatisfy(v -> assertThat(v.getVersion()).isEqualTo(DemoRun.TO));
            assertThat(
                            CrdSchema.bundled("clusteroperators.config.openshift.io", "v1")
                                    .violations(co))
                    .isEmpty();

            // then a file changed under a None policy: every node takes it, none drained or
            // rebooted
            ConfigChange.Result changed = demo.configChange(Duration.ofSeconds(60), () -> {});
            assertThat(changed.line())
                    .isEqualTo("config change: 5 nodes updated, 0 drained, 0 rebooted");
            for (Node n : demo.cluster().client().nodes().list().getItems()) {
                assertThat(dir.resolve("hosts/" + n.getMetadata().getName() + ConfigChange.PATH))
                        .content()
                        .startsWith("Welcome to the Upshift demo");
            }
            var configuration =
                    demo.cluster()
                            .client()
                            .genericKubernetesResources(MachineConfigurations.CONTEXT)
                            .withName("cluster")
                            .get();
            assertThat(
                            CrdSchema.bundled("machineconfigurations.operator.openshift.io", "v1")
                                    .violations(configuration))
                    .isEmpty();
            for (MachineConfig mc :
                    demo.cluster().client().resources(MachineConfig.class).list().getItems()) {
                assertThat(
                                CrdSchema.bundled(
                                                "machineconfigs.machineconfiguration.openshift.io",
                                                "v1")
                                        .violations(mc))
                        .isEmpty();
            }
            // every node's MachineConfigNode: its pool, the config it runs, Updated (its agent
            // reports that at the step after Done)
            await("every node reported Updated")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> {
                                List<MachineConfigNode> mcns =
                                        demo.cluster()
                                                .client()
                                                .resources(MachineConfigNode.class)
                                                .list()
                                                .getItems();
                                return mcns.size() == 5
                                        && mcns.stream()
                                                .allMatch(
                                                        m ->
                                                                Conditions.META.isTrue(
                                                                        m.getStatus()
                                                                                .getConditions(),
                                                                        "Updated"));
                            });
            for (MachineConfigNode mcn :
                    demo.cluster().client().resources(MachineConfigNode.class).list().getItems()) {
                Node node =
                        demo.cluster().client().nodes().withName(mcn.getMetadata().getName()).get();
                assertThat(mcn.getStatus().getConfigVersion().getCurrent())
                        .isEqualTo(
                                node.getMetadata()
                                        .getAnnotations()
                                        .get(NodeAnnotations.CURRENT_CONFIG));
                assertThat(mcn.getSpec().getPool().getName())
                        .isEqualTo(
                                node.getMetadata()
                                                .getLabels()
                                                .containsKey("node-role.kubernetes.io/master")
                                        ? "master"
                                        : "worker");
                assertThat(
                                CrdSchema.bundled(
                                                "machineconfignodes.machineconfiguration.openshift.io",
                                                "v1")
                                        .violations(mcn))
                        .isEmpty();
            }
            // the controllers and agents did all this as their deploy/ ServiceAccounts: nothing
            // deploy/rbac.yaml does not allow
            assertThat(demo.cluster().server().dispatcher().accessRefusals()).isEmpty();
        }
    }

    /**
     * The EUS-to-EUS path: workers paused on 4.18 while the control plane goes to 4.19 and 4.20
     * (4.20 supports kubelets two minors behind); 4.21 would not (one behind), so it is refused
     * naming the pool until the workers catch up.
     */
    @Test
    void workersPausedFromOneEusToTheNextThenTheOddMinorWaitsForThem() throws Exception {
        // retries of a refused update come within seconds (the backoff is a sixteenth of this,
        // doubling, at most this)
        try (DemoRun demo =
                new DemoRun(
                                new DemoRun.Settings(4, 2, Duration.ofMillis(300), 9, dir, 2, 2)
                                        .withControllerOptions(
                                                o ->
                                                        o.withTiming(
                                                                Duration.ofSeconds(30),
                                                                Duration.ofSeconds(16),
                                                                Duration.ofSeconds(1))),
                                l -> {})
                        .start()) {
            assertThat(demo.admin().await(DemoRun.FROM, Duration.ofSeconds(60), () -> {})).isTrue();
            assertThat(demo.admin().awaitNodes(DemoRun.FROM, Duration.ofSeconds(60), () -> {}))
                    .isTrue();
            paused(demo, true);

            // 4.18 -> 4.19 -> 4.20 are accepted; the control plane moves, the paused workers stay
            // on 4.18.
            demo.admin()
                    .requestUpdate(
                            null,
                            demo.releases().publish("4.19.0", List.of(DemoRun.FROM), true),
                            false);
            assertThat(demo.admin().await("4.19.0", Duration.ofSeconds(90), () -> {})).isTrue();
            demo.admin()
                    .requestUpdate(
                            null,
                            demo.releases().publish("4.20.0", List.of("4.19.0"), true),
                            false);
            assertThat(demo.admin().await("4.20.0", Duration.ofSeconds(90), () -> {})).isTrue();
            assertThat(releases(demo, "master")).containsOnly("4.20.0");
            assertThat(releases(demo, "worker")).containsOnly(DemoRun.FROM);
            assertThat(risks(demo))
                    .doesNotContain(
                            "Upgradeable"); // only "not among the recommended updates": no graph
            // here

            // 4.20 -> 4.21 is refused, naming the nodes and their pool.
            String gate =
                    "KubeletMinorVersionUpgradeable: Kubelet versions on nodes worker-0 and"
                        + " worker-1 will not be supported in the next OpenShift version upgrade."
                        + " Compared by release for nodes worker-0 and worker-1, which report no"
                        + " kubelet version. Pools: worker (2 nodes, paused).";
            demo.admin()
                    .requestUpdate(
                            null,
                            demo.releases().publish("4.21.0", List.of("4.20.0"), true),
                            false);
            await("the update refused")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> {
                                var accepted =
                                        Conditions.CLUSTER.find(
                                                demo.admin()
                                                        .clusterVersion()
                                                        .getStatus()
                                                        .getConditions(),
                                                "ReleaseAccepted");
                                return accepted != null
                                        && "PreconditionChecks".equals(accepted.getReason())
                                        && accepted.getMessage().contains(gate);
                            });
            assertThat(demo.admin().clusterVersion().getStatus().getHistory().get(0).getVersion())
                    .isEqualTo("4.20.0");

            // Unpaused, the workers take 4.20 and the refused update goes ahead.
            paused(demo, false);
            assertThat(demo.admin().await("4.21.0", Duration.ofMinutes(2), () -> {})).isTrue();
            assertThat(risks(demo)).doesNotContain("Upgradeable");
            assertThat(demo.admin().awaitNodes("4.21.0", Duration.ofSeconds(60), () -> {}))
                    .isTrue();
        }
    }

    /** The risks the update to the current release was accepted with ("" when none). */
    static String risks(DemoRun demo) {
        return Objects.toString(
                demo.admin().clusterVersion().getStatus().getHistory().get(0).getAcceptedRisks(),
                "");
    }

    static void paused(DemoRun demo, boolean paused) {
        Conflicts.retry(
                () ->
                        demo.cluster()
                                .client()
                                .resources(MachineConfigPool.class)
                                .withName("worker")
                                .edit(
                                        p -> {
                                            p.getSpec().setPaused(paused);
                                            return p;
                                        }));
    }

    /** The release whose controller rendered the config each node of the role runs. */
    static List<String> releases(DemoRun demo, String role) {
        return demo
                .cluster()
                .client()
                .nodes()
                .withLabel("node-role.kubernetes.io/" + role)
                .list()
                .getItems()
                .stream()
                .map(
                        n -> {
                            String current =
                                    n.getMetadata()
                                            .getAnnotations()
                                            .get(NodeAnnotations.CURRENT_CONFIG);
                            MachineConfig mc =
                                    demo.cluster()
                                            .client()
                                            .resources(MachineConfig.class)
                                            .withName(current)
                                            .get();
                            return mc.getMetadata()
                                    .getAnnotations()
                                    .get(NodeAnnotations.RELEASE_IMAGE_VERSION);
                        })
                .toList();
    }
}
