package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatus;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.OperandVersion;
import io.upshift.base.conditions.Conditions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gate decision: intentional lag within the kubelet skew passes, accidental lag blocks,
 * required pools hold the version.
 */
class PoolGateTest {

    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    /**
     * Which release rendered each config, as the controller reads it from the rendered configs'
     * annotations.
     */
    static final Map<String, String> RELEASE_OF =
            Map.of(
                    "rendered-master-old",
                    "4.18.1",
                    "rendered-master-new",
                    "4.19.2",
                    "rendered-worker-old",
                    "4.18.1",
                    "rendered-worker-new",
                    "4.19.2",
                    "rendered-cp-new",
                    "4.19.2",
                    "rendered-cp-old",
                    "4.18.1");

    /** A pool whose nodes are Done on the given configs, targeting rendered-NAME-new. */
    static PoolProgress pool(String name, boolean paused, String... currents) {
        List<PoolNode> nodes = new ArrayList<>();
        for (int i = 0; i < currents.length; i++)
            nodes.add(PoolProgressTest.node(name + "-" + i, currents[i], currents[i], "Done", ""));
        return new PoolProgress(name, "rendered-" + name + "-new", nodes, paused, null, null, null);
    }

    /** The pool as the controller hands it to the gate for release {@code release}. */
    static PoolGate.Pool gate(PoolProgress p, boolean required, String release) {
        Map<String, String> versions = new LinkedHashMap<>();
        p.nodes()
                .forEach(
                        n ->
                                versions.put(
                                        n.name(), RELEASE_OF.getOrDefault(n.currentConfig(), "")));
        return new PoolGate.Pool(
                p.pool(),
                p,
                required,
                p.isUpdated() && release.equals(RELEASE_OF.get(p.target())),
                versions);
    }

    static ClusterOperatorStatus reporting(String version) {
        ClusterOperatorStatus s = new ClusterOperatorStatus();
        s.setVersions(List.of(new OperandVersion("operator", version)));
        return s;
    }

    static ClusterOperatorStatusCondition condition(ClusterOperatorStatus s, String type) {
        return Conditions.CLUSTER.find(s.getConditions(), type);
    }

    @Test
    void workersPausedOnThePreviousMinorPassAsTheNextMinorStillSupportsThem() {
        PoolGate.Pool master =
                gate(
                        pool("master", false, "rendered-master-new", "rendered-master-new"),
                        true,
                        "4.19.2");
        PoolGate.Pool worker =
                gate(
                        pool("worker", true, "rendered-worker-old", "rendered-worker-old"),
                        false,
                        "4.19.2");
        ClusterOperatorStatus s =
                PoolGate.status("4.19.2", reporting("4.18.1"), List.of(master, worker), NOW, NOW);
        ClusterOperatorStatusCondition upgradeable = condition(s, "Upgradeable");
        assertThat(upgradeable.getStatus()).isEqualTo("True");
        assertThat(upgradeable.getReason()).isEqualTo("AsExpected");
        assertThat(upgradeable.getMessage())
                .isEqualTo(
                        "KubeletMinorVersionUpgradeable: Kubelet versions on nodes worker-0 and"
                            + " worker-1 are behind the expected API server version; nevertheless,"
                            + " they will continue to be supported in the next OpenShift version"
                            + " upgrade. Compared by release for nodes worker-0 and worker-1, which"
                            + " report no kubelet version.");
        assertThat(s.getVersions().get(0).getVersion())
                .isEqualTo("4.19.2"); // the required pool is done; the paused one may lag
        assertThat(condition(s, "Progressing").getMessage()).isEqualTo("Cluster version is 4.19.2");
        assertThat(condition(s, "Degraded").getStatus()).isEqualTo("False");
    }

    @Test
    void workersTwoMinorsBehindBlockTheOddMinorAfterAnEusAndThePoolIsNamed() {
        Map<String, String> at420 = Map.of("worker-0", "4.18.1", "worker-1", "4.18.1");
        PoolGate.Pool worker =
                new PoolGate.Pool(
                        "worker",
                        pool("worker", true, "rendered-worker-old", "rendered-worker-old"),
                        false,
                        false,
                        at420);
        PoolGate.Pool master =
                new PoolGate.Pool(
                        "master",
                        pool("master", false, "rendered-master-new"),
                        true,
                        true,
                        Map.of("master-0", "4.20.0"));
        ClusterOperatorStatus s =
                PoolGate.status("4.20.0", reporting("4.20.0"), List.of(master, worker), null, NOW);
        ClusterOperatorStatusCondition upgradeable = condition(s, "Upgradeable");
        assertThat(upgradeable.getStatus()).isEqualTo("False");
        assertThat(upgradeable.getReason())
                .isEqualTo("KubeletMinorVersion_KubeletMinorVersionUnsupportedNextUpgrade");
        assertThat(upgradeable.getMessage())
                .isEqualTo(
                        "KubeletMinorVersionUpgradeable: Kubelet versions on nodes worker-0 and"
                            + " worker-1 will not be supported in the next OpenShift version"
                            + " upgrade. Compared by release for nodes worker-0 and worker-1, which"
                            + " report no kubelet version. Pools: worker (2 nodes, paused).");
    }

    @Test
    void aDegradedPoolBlocksNamingItsNodesAndHoldsTheVersionThoughNotRequired() {
        PoolGate.Pool master = gate(pool("master", false, "rendered-master-new"), true, "4.19.2");
        List<PoolNode> nodes =
                List.of(
                        PoolProgressTest.node(
                                "worker-0",
                                "rendered-worker-new",
                                "rendered-worker-new",
                                "Done",
                                ""),
                        PoolProgressTest.node(
                                "worker-1",
                                "rendered-worker-old",
                                "rendered-worker-new",
                                "Degraded",
                                "failed to write /etc/x: read-only"));
        PoolGate.Pool worker =
                gate(
                        new PoolProgress(
                                "worker", "rendered-worker-new", nodes, false, null, null, null),
                        false,
                        "4.19.2");
        ClusterOperatorStatus s =
                PoolGate.status("4.19.2", reporting("4.18.1"), List.of(master, worker), NOW, NOW);
        ClusterOperatorStatusCondition upgradeable = condition(s, "Upgradeable");
        assertThat(upgradeable.getStatus()).isEqualTo("False");
        assertThat(upgradeable.getReason()).isEqualTo("DegradedPool");
        assertThat(upgradeable.getMessage())
                .isEqualTo(
                        "One or more machine config pools are degraded, please see `oc get mcp` for"
                                + " further details and resolve before upgrading: pool worker: Node"
                                + " worker-1 is reporting: \"failed to write /etc/x: read-only\"");
        assertThat(s.getVersions().get(0).getVersion()).isEqualTo("4.18.1");
        assertThat(condition(s, "Progressing").getMessage()).isEqualTo("Working towards 4.19.2");
        assertThat(condition(s, "Degraded").getStatus())
                .isEqualTo("False"); // not before the wait times out
    }

    @Test
    void poolsMerelyUpdatingDoNotBlock() {
        PoolGate.Pool master = gate(pool("master", false, "rendered-master-new"), true, "4.19.2");
        List<PoolNode> nodes =
                List.of(
                        PoolProgressTest.node(
                                "worker-0",
                                "rendered-worker-new",
                                "rendered-worker-new",
                                "Done",
                                ""),
                        PoolProgressTest.node(
                                "worker-1",
                                "rendered-worker-old",
                                "rendered-worker-new",
                                "Working",
                                ""),
                        PoolProgressTest.node(
                                "worker-2", "", "", "", "")); // joined just now: runs no config yet
        PoolProgress updating =
                new PoolProgress("worker", "rendered-worker-new", nodes, false, null, null, null);
        Map<String, String> versions = Map.of("worker-0", "4.19.2", "worker-1", "4.18.1");
        ClusterOperatorStatus s =
                PoolGate.status(
                        "4.19.2",
                        reporting("4.19.2"),
                        List.of(
                                master,
                                new PoolGate.Pool("worker", updating, false, false, versions)),
                        null,
                        NOW);
        assertThat(condition(s, "Upgradeable").getStatus()).isEqualTo("True");
        assertThat(condition(s, "Progressing").getStatus()).isEqualTo("False");
        assertThat(condition(s, "Progressing").getMessage()).isEqualTo("Cluster version is 4.19.2");
    }

    @Test
    void theLabelNotTheNameMakesAPoolRequired() {
        PoolGate.Pool cp =
                gate(pool("cp", false, "rendered-cp-new", "rendered-cp-old"), true, "4.19.2");
        PoolGate.Pool master = gate(pool("master", false, "rendered-master-old"), false, "4.19.2");
        ClusterOperatorStatus held =
                PoolGate.status("4.19.2", reporting("4.18.1"), List.of(cp, master), NOW, NOW);
        assertThat(held.getVersions().get(0).getVersion()).isEqualTo("4.18.1");
        assertThat(condition(held, "Progressing").getStatus()).isEqualTo("True");

        PoolGate.Pool cpDone =
                gate(pool("cp", false, "rendered-cp-new", "rendered-cp-new"), true, "4.19.2");
        ClusterOperatorStatus reported =
                PoolGate.status("4.19.2", held, List.of(cpDone, master), null, NOW);
        assertThat(reported.getVersions().get(0).getVersion())
                .isEqualTo("4.19.2"); // the unlabelled "master" lags
        assertThat(condition(reported, "Available").getMessage())
                .isEqualTo("Cluster has deployed 4.19.2");
    }

    @Test
    void requiredPoolsNotUpdatedInTenMinutesPerNodeDegradeTheOperatorUntilTheyAre() {
        List<PoolNode> nodes =
                List.of(
                        PoolProgressTest.node(
                                "master-0",
                                "rendered-master-new",
                                "rendered-master-new",
                                "Done",
                                ""),
                        PoolProgressTest.node(
                                "master-1",
                                "rendered-master-old",
                                "rendered-master-new",
                                "Working",
                                ""));
        PoolGate.Pool master =
                gate(
                        new PoolProgress(
                                "master", "rendered-master-new", nodes, false, null, null, null),
                        true,
                        "4.19.2");
        Instant since = NOW.minus(Duration.ofMinutes(19));
        ClusterOperatorStatus waiting =
                PoolGate.status("4.19.2", reporting("4.18.1"), List.of(master), since, NOW);
        assertThat(condition(waiting, "Degraded").getStatus()).isEqualTo("False");

        ClusterOperatorStatus failed =
                PoolGate.status(
                        "4.19.2", waiting, List.of(master), since, NOW.plus(Duration.ofMinutes(1)));
        assertThat(condition(failed, "Degraded").getStatus()).isEqualTo("True");
        assertThat(condition(failed, "Degraded").getReason()).isEqualTo("RequiredPoolsFailed");
        assertThat(condition(failed, "Degraded").getMessage())
                .isEqualTo(
                        "Unable to apply 4.19.2: during syncRequiredMachineConfigPools: [context"
                            + " deadline exceeded, required MachineConfigPool master is not ready,"
                            + " retrying. Status: (total: 2, ready 1, updated: 1, unavailable: 1,"
                            + " degraded: 0)]");
        assertThat(condition(failed, "Progressing").getMessage())
                .isEqualTo("Unable to apply 4.19.2");
        assertThat(failed.getVersions().get(0).getVersion()).isEqualTo("4.18.1");

        // A restarted controller begins the wait again, but the operator stays Degraded until the
        // pool is done.
        ClusterOperatorStatus restarted =
                PoolGate.status(
                        "4.19.2", failed, List.of(master), NOW, NOW.plus(Duration.ofMinutes(2)));
        assertThat(condition(restarted, "Degraded").getStatus()).isEqualTo("True");

        PoolGate.Pool done =
                gate(
                        pool("master", false, "rendered-master-new", "rendered-master-new"),
                        true,
                        "4.19.2");
        ClusterOperatorStatus after =
                PoolGate.status(
                        "4.19.2", restarted, List.of(done), null, NOW.plus(Duration.ofMinutes(3)));
        assertThat(condition(after, "Degraded").getStatus()).isEqualTo("False");
        assertThat(after.getVersions().get(0).getVersion()).isEqualTo("4.19.2");
    }

    @Test
    void aPausedRequiredPoolFailsAtOnce() {
        PoolGate.Pool master = gate(pool("master", true, "rendered-master-old"), true, "4.19.2");
        ClusterOperatorStatus s =
                PoolGate.status("4.19.2", reporting("4.18.1"), List.of(master), NOW, NOW);
        assertThat(condition(s, "Degraded").getMessage())
                .isEqualTo(
                        "Unable to apply 4.19.2: required MachineConfigPool master is paused and"
                                + " cannot sync until it is unpaused");
        assertThat(s.getVersions().get(0).getVersion()).isEqualTo("4.18.1");
    }

    @Test
    void aDegradedPoolAfterTheVersionWasReportedFailsTheResync() {
        PoolProgress broken =
                new PoolProgress(
                        "worker",
                        "rendered-worker-new",
                        List.of(),
                        false,
                        "file path \"../x\" is not absolute",
                        null,
                        null);
        PoolGate.Pool worker = new PoolGate.Pool("worker", broken, false, false, Map.of());
        ClusterOperatorStatus s =
                PoolGate.status("4.19.2", reporting("4.19.2"), List.of(worker), NOW, NOW);
        assertThat(condition(s, "Degraded").getStatus())
                .isEqualTo("True"); // no required nodes: no time to wait
        assertThat(condition(s, "Degraded").getMessage())
                .isEqualTo(
                        "Failed to resync 4.19.2 because: during syncRequiredMachineConfigPools:"
                            + " [context deadline exceeded, MachineConfigPool worker is not ready,"
                            + " retrying. Status: (pool degraded: true total: 0, ready 0, updated:"
                            + " 0, unavailable: 0, reason: Failed to render configuration for pool"
                            + " worker: file path \"../x\" is not absolute)]");
        assertThat(condition(s, "Progressing").getMessage())
                .isEqualTo("Error while reconciling 4.19.2");
        assertThat(condition(s, "Upgradeable").getReason()).isEqualTo("DegradedPool");
    }

    @Test
    void templatesThatDoNotRenderDegradeTheOperatorAheadOfThePoolsAndClearOnceTheyDo() {
        String why =
                "ConfigMap openshift-machine-config-operator/machine-config-templates: template"
                        + " worker.00-worker._base.files.a.yaml: line 3: unknown field .Foo";
        PoolProgress broken =
                new PoolProgress(
                        "master", "rendered-master-old", List.of(), false, why, null, null);
        PoolGate.Pool master = new PoolGate.Pool("master", broken, true, false, Map.of());
        ClusterOperatorStatus s =
                PoolGate.status("4.19.2", reporting("4.18.1"), List.of(master), why, NOW, NOW);
        assertThat(condition(s, "Degraded").getStatus()).isEqualTo("True");
        assertThat(condition(s, "Degraded").getReason()).isEqualTo("MachineConfigControllerFailed");
        assertThat(condition(s, "Degraded").getMessage())
                .isEqualTo("Unable to apply 4.19.2: " + why);
        assertThat(condition(s, "Progressing").getMessage()).isEqualTo("Unable to apply 4.19.2");
        assertThat(condition(s, "Upgradeable").getReason()).isEqualTo("DegradedPool");
        assertThat(s.getVersions().get(0).getVersion()).isEqualTo("4.18.1");

        PoolGate.Pool done = gate(pool("master", false, "rendered-master-new"), true, "4.19.2");
        ClusterOperatorStatus fixed = PoolGate.status("4.19.2", s, List.of(done), null, null, NOW);
        assertThat(condition(fixed, "Degraded").getStatus()).isEqualTo("False");
        assertThat(fixed.getVersions().get(0).getVersion()).isEqualTo("4.19.2");
    }
}
