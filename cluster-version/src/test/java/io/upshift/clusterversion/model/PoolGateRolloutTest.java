package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeSystemInfo;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.schema.CrdSchema;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.version.SemVer;
import io.upshift.pools.controller.PoolHarness;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.testkit.Conflicts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The machine-config ClusterOperator as the real pool controller and agents leave it: paused pools
 * within the kubelet skew pass, beyond it they block; a degraded pool blocks and holds the version;
 * required pools hold the version.
 */
@Tag("e2e")
class PoolGateRolloutTest {
    static final CrdSchema CO_CRD = CrdSchema.bundled("clusteroperators.config.openshift.io", "v1");

    @TempDir Path hosts;

    @Test
    void workersPausedFromOneEusToTheNextPassThenBlockTheOddMinorUntilUnpaused() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.pool("master", 1, false, true);
            h.pool("worker", 1, false);
            h.config("00-master", "master", "m18", "os@4.18");
            h.config("00-worker", "worker", "w18", "os@4.18");
            h.node("master-0", "master", "a", 10);
            h.node("worker-0", "worker", "a", 5);
            h.node("worker-1", "worker", "b", 5);
            h.startAgents();
            h.startController("4.18.3");
            await("4.18 everywhere")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("master") && h.settled("worker"));
            String oldWorker = h.pool("worker").getSpec().getConfiguration().getName();
            pauseWorkers(h, true);

            // 4.19: the control plane moves, the paused workers stay on 4.18; 4.20 will still
            // support them.
            controlPlaneTo(h, "4.19.0", "m19");
            ClusterOperatorStatusCondition at419 = upgradeable(h);
            assertThat(at419.getStatus()).isEqualTo("True");
            assertThat(at419.getMessage())
                    .isEqualTo(
                            "KubeletMinorVersionUpgradeable: Kubelet versions on nodes worker-0 and"
                                + " worker-1 are behind the expected API server version;"
                                + " nevertheless, they will continue to be supported in the next"
                                + " OpenShift version upgrade. Compared by release for nodes"
                                + " worker-0 and worker-1, which report no kubelet version.");
            assertThat(Preconditions.check(input(h, "4.19.0", "4.20.0")))
                    .noneMatch(Precondition::blocking);

            // 4.20: still within the skew, but 4.21 (odd) supports one minor behind only: the next
            // minor is refused.
            controlPlaneTo(h, "4.20.0", "m20");
            String refusal =
                    "KubeletMinorVersionUpgradeable: Kubelet versions on nodes worker-0 and"
                        + " worker-1 will not be supported in the next OpenShift version upgrade."
                        + " Compared by release for nodes worker-0 and worker-1, which report no"
                        + " kubelet version. Pools: worker (2 nodes, paused).";
            await("the next minor refused")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> refusal.equals(upgradeable(h).getMessage()));
            ClusterOperatorStatusCondition at420 = upgradeable(h);
            assertThat(at420.getStatus()).isEqualTo("False");
            assertThat(at420.getReason())
                    .isEqualTo("KubeletMinorVersion_KubeletMinorVersionUnsupportedNextUpgrade");
            assertThat(CO_CRD.violations(operator(h))).isEmpty();
            for (String w : List.of("worker-0", "worker-1")) {
                assertThat(h.annotation(w, NodeAnnotations.DESIRED_CONFIG))
                        .isEqualTo(oldWorker); // untouched
                assertThat(PoolHarness.readFile(hosts.resolve(w + "/etc/upshift-test/00-worker")))
                        .isEqualTo("w18");
            }
            assertThat(Preconditions.check(input(h, "4.20.0", "4.21.0")))
                    .anySatisfy(
                            p -> {
                                assertThat(p.blocking()).isTrue();
                                assertThat(p.message())
                                        .contains(
                                                "Cluster operator machine-config should not be"
                                                        + " upgraded between minor versions: "
                                                        + refusal);
                            });
            assertThat(Preconditions.check(input(h, "4.20.0", "4.20.1")))
                    .noneMatch(Precondition::blocking);

            // Unpaused, the workers catch up and the gate opens.
            pauseWorkers(h, false);
            await("the workers on 4.20 and the gate open")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.settled("worker")
                                            && "True".equals(upgradeable(h).getStatus())
                                            && upgradeable(h)
                                                    .getMessage()
                                                    .contains("versions are synced."));
        }
    }

    @Test
    void aNodeWhoseKubeletLagsTheApiServerBlocksTheNextMinorWhateverReleaseRenderedItsConfig()
            throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.pool("master", 1, false, true);
            h.pool("worker", 1, false);
            h.config("00-master", "master", "m20", "os@4.20");
            h.config("00-worker", "worker", "w20", "os@4.20");
            h.node("master-0", "master", "a", 10);
            h.node("worker-0", "worker", "a", 5);
            h.node("worker-1", "worker", "b", 5);
            h.startAgents();
            h.startController("4.20.0");
            await("4.20 everywhere")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("master") && h.settled("worker"));

            // Every node runs 4.20's config, yet worker-0's kubelet is two minors behind the API
            // server (whichever server this is: the embedded one or a real kube-apiserver): 4.20
            // allows that, 4.21 does not.
            String api = h.client.getKubernetesVersion().getGitVersion().substring(1);
            long minor = SemVer.parse(api).minor();
            kubelet(h, "master-0", "v1." + minor + ".3");
            kubelet(h, "worker-1", "v1." + minor + ".3");
            kubelet(h, "worker-0", "v1." + (minor - 2) + ".7");
            String refusal =
                    "KubeletMinorVersionUpgradeable: Kubelet version (1."
                            + (minor - 2)
                            + ".7) on node worker-0 will not be supported in the next OpenShift"
                            + " version upgrade. The API server's version is "
                            + api
                            + ". Pools: worker (1 node).";
            await("the next minor refused by the kubelet")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> refusal.equals(upgradeable(h).getMessage()));
            assertThat(upgradeable(h).getStatus()).isEqualTo("False");
            assertThat(Preconditions.check(input(h, "4.20.0", "4.21.0")))
                    .anySatisfy(p -> assertThat(p.message()).contains(refusal));
            assertThat(Preconditions.check(input(h, "4.20.0", "4.20.1")))
                    .noneMatch(Precondition::blocking);

            // Its kubelet updated, the gate opens.
            kubelet(h, "worker-0", "v1." + minor + ".3");
            await("the gate open")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    "Kubelet and API server versions are synced."
                                            .equals(
                                                    upgradeable(h)
                                                            .getMessage()
                                                            .replace(
                                                                    "KubeletMinorVersionUpgradeable:"
                                                                        + " ",
                                                                    "")));
            assertThat(upgradeable(h).getStatus()).isEqualTo("True");
        }
    }

    /** The node's kubelet reports {@code version}, as a kubelet does in its node's status. */
    static void kubelet(PoolHarness h, String node, String version) {
        h.client
                .nodes()
                .withName(node)
                .editStatus(
                        n -> {
                            if (n.getStatus().getNodeInfo() == null)
                                n.getStatus().setNodeInfo(new NodeSystemInfo());
                            n.getStatus().getNodeInfo().setKubeletVersion(version);
                            return n;
                        });
    }

    @Test
    void aDegradedWorkerPoolBlocksNamingItsNodeAndHoldsTheVersion() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.pool("master", 1, false, true);
            h.pool("worker", 1, false);
            h.config("00-master", "master", "m1", "os@1");
            h.config("00-worker", "worker", "w1", "os@1");
            h.node("master-0", "master", "a", 10);
            h.node("worker-0", "worker", "a", 5);
            h.node("worker-1", "worker", "b", 5);
            h.startAgents();
            h.startController("4.19.0");
            await("settled")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.settled("master")
                                            && h.settled("worker")
                                            && "4.19.0".equals(version(h)));

            // worker-1 cannot take the next config: a directory stands where its file goes.
            Files.createDirectories(
                    hosts.resolve("worker-1/etc/upshift-test/01-worker/in-the-way"));
            h.config("01-worker", "worker", "extra", "os@1");
            await("the worker pool degraded")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.conditionTrue("worker", "Degraded")
                                            && "DegradedPool".equals(upgradeable(h).getReason()));
            assertThat(upgradeable(h).getStatus()).isEqualTo("False");
            assertThat(upgradeable(h).getMessage())
                    .startsWith(
                            "One or more machine config pools are degraded, please see `oc get mcp`"
                                + " for further details and resolve before upgrading: pool worker:"
                                + " Node worker-1 is reporting: \"");

            // The next release's controller: the required pool updates, yet the degraded pool holds
            // the version back.
            h.config("00-master", "master", "m2", "os@2");
            h.startController("4.19.1");
            await("the control plane on 4.19.1")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.settled("master")
                                            && "m2"
                                                    .equals(
                                                            PoolHarness.readFile(
                                                                    hosts.resolve(
                                                                            "master-0/etc/upshift-test/00-master")))
                                            && "Working towards 4.19.1"
                                                    .equals(
                                                            condition(h, "Progressing")
                                                                    .getMessage()));
            long passes = h.controller.passes();
            await("more passes")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.controller.passes() > passes + 2);
            assertThat(version(h)).isEqualTo("4.19.0");
            assertThat(upgradeable(h).getReason()).isEqualTo("DegradedPool");
            assertThat(CO_CRD.violations(operator(h))).isEmpty();
        }
    }

    @Test
    void aRequiredPoolWhateverItsNameHoldsTheVersionUntilUpdatedWhileOtherPoolsMayLag()
            throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.pool("control-plane", 1, false, true);
            h.pool("worker", 1, false);
            h.config("00-control-plane", "control-plane", "c1", "os@1");
            h.config("00-worker", "worker", "w1", "os@1");
            h.node("cp-0", "control-plane", "a", 10);
            h.node("cp-1", "control-plane", "b", 10);
            h.node("worker-0", "worker", "a", 5);
            h.startAgents();
            h.startController("4.19.0");
            await("settled")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.settled("control-plane")
                                            && h.settled("worker")
                                            && "4.19.0".equals(version(h)));

            // cp-1's and worker-0's agents are down: neither takes the next release's config.
            h.agents.remove("cp-1").close();
            h.agents.remove("worker-0").close();
            h.config("00-control-plane", "control-plane", "c2", "os@2");
            h.config("00-worker", "worker", "w2", "os@2");
            h.startController("4.19.1");
            await("the operator working towards 4.19.1")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    "Working towards 4.19.1"
                                            .equals(condition(h, "Progressing").getMessage()));
            long passes = h.controller.passes();
            await("more passes")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.controller.passes() > passes + 2);
            assertThat(version(h)).isEqualTo("4.19.0");
            assertThat(condition(h, "Degraded").getStatus()).isEqualTo("False"); // 20 minutes to go

            // Once the required pool is Updated the release is reported; the worker still lags.
            h.startAgent("cp-1");
            await("4.19.1 reported")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> "4.19.1".equals(version(h)));
            assertThat(h.settled("control-plane")).isTrue();
            assertThat(h.settled("worker")).isFalse();
            assertThat(condition(h, "Progressing").getMessage())
                    .isEqualTo("Cluster version is 4.19.1");
        }
    }

    /**
     * Starts the controller of {@code release} with new configs (the workers' too) and waits until
     * it reports the release.
     */
    static void controlPlaneTo(PoolHarness h, String release, String content) {
        h.config("00-master", "master", content, "os@" + release);
        h.config("00-worker", "worker", "w-" + release, "os@" + release);
        h.startController(release);
        await("the control plane on " + release)
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                h.settled("master")
                                        && content.equals(
                                                PoolHarness.readFile(
                                                        h.hosts.resolve(
                                                                "master-0/etc/upshift-test/00-master")))
                                        && release.equals(version(h)));
    }

    static ClusterOperator operator(PoolHarness h) {
        return h.client.resources(ClusterOperator.class).withName("machine-config").get();
    }

    static String version(PoolHarness h) {
        ClusterOperator co = operator(h);
        return co == null || co.getStatus() == null || co.getStatus().getVersions() == null
                ? null
                : co.getStatus().getVersions().get(0).getVersion();
    }

    static ClusterOperatorStatusCondition condition(PoolHarness h, String type) {
        ClusterOperator co = operator(h);
        ClusterOperatorStatusCondition c =
                co == null || co.getStatus() == null
                        ? null
                        : Conditions.CLUSTER.find(co.getStatus().getConditions(), type);
        return c == null ? new ClusterOperatorStatusCondition() : c;
    }

    static ClusterOperatorStatusCondition upgradeable(PoolHarness h) {
        return condition(h, "Upgradeable");
    }

    /**
     * The cluster-version controller's preconditions for {@code current} to {@code target} from the
     * ClusterOperators as they are.
     */
    static Preconditions.Input input(PoolHarness h, String current, String target) {
        Upgradeable u =
                Upgradeable.of(
                        new Upgradeable.Facts(
                                h.client.resources(ClusterOperator.class).list().getItems(),
                                List.of(),
                                AdminGates.ConfigMaps.NONE,
                                List.of()),
                        new ClusterVersionStatus());
        ClusterOperatorStatusCondition condition =
                new ClusterOperatorStatusCondition(
                        null, u.message(), u.reason(), u.status(), "Upgradeable");
        return new Preconditions.Input(
                SemVer.parse(current),
                "img-" + current,
                SemVer.parse(target),
                List.of(),
                condition,
                List.of(),
                List.of(),
                "stable-4.20",
                null,
                false,
                null);
    }

    private static void pauseWorkers(PoolHarness h, boolean paused) {
        Conflicts.retry(
                () ->
                        h.client
                                .resources(MachineConfigPool.class)
                                .withName("worker")
                                .edit(
                                        p -> {
                                            p.getSpec().setPaused(paused);
                                            return p;
                                        }));
    }
}
