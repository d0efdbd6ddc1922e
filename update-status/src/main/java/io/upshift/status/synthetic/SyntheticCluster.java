package io.upshift.status.synthetic;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusConditionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateHistoryBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import io.upshift.status.model.ClusterState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * A made-up cluster in the middle of an update from {@link #FROM} to {@link #TO}, for tests,
 * benchmarks and the example snapshot: a master pool of three nodes, worker pools of equal size,
 * and platform operators of which a share are updated. The same parameters always give the same
 * cluster.
 *
 * @param nodes worker nodes in all (masters come on top)
 * @param pools worker pools
 * @param operators platform ClusterOperators
 * @param progress share of operators already at {@link #TO}, 0 to 1; at 1 the control plane is done
 *     and the worker nodes roll
 * @param at the moment the cluster is seen at
 */
public record SyntheticCluster(int nodes, int pools, int operators, double progress, Instant at) {
    public static final String FROM = "4.16.8";
    public static final String TO = "4.17.2";
    private static final String MCO = "machineconfiguration.openshift.io/";

    public ClusterState state() {
        List<HasMetadata> all = objects();
        List<ClusterOperator> cos =
                all.stream()
                        .filter(ClusterOperator.class::isInstance)
                        .map(ClusterOperator.class::cast)
                        .toList();
        List<MachineConfigPool> mcps =
                all.stream()
                        .filter(MachineConfigPool.class::isInstance)
                        .map(MachineConfigPool.class::cast)
                        .toList();
        List<MachineConfig> mcs =
                all.stream()
                        .filter(MachineConfig.class::isInstance)
                        .map(MachineConfig.class::cast)
                        .toList();
        List<Node> ns = all.stream().filter(Node.class::isInstance).map(Node.class::cast).toList();
        ClusterVersion cv =
                all.stream()
                        .filter(ClusterVersion.class::isInstance)
                        .map(ClusterVersion.class::cast)
                        .findFirst()
                        .orElseThrow();
        return new ClusterState(cv, cos, mcps, mcs, ns, "", Optional.empty());
    }

    /** Every object of the cluster, ClusterVersion first. */
    public List<HasMetadata> objects() {
        Random random = new Random(nodes * 31L + pools * 7L + operators);
        Instant started = at.minus(Duration.ofMinutes(47));
        List<HasMetadata> out = new ArrayList<>();
        out.add(clusterVersion(started));
        int updatedOperators = (int) Math.round(operators * progress);
        for (int i = 0; i < operators; i++) {
            out.add(operator(i, i < updatedOperators, i == updatedOperators, started));
        }
        List<String> poolNames = new ArrayList<>(List.of("master"));
        for (int p = 0; p < pools; p++) {
            poolNames.add(p == 0 ? "worker" : "worker-" + p);
        }
        for (String pool : poolNames) {
            out.add(pool(pool));
            out.add(config(pool, FROM));
            out.add(config(pool, TO));
        }
        boolean rolling = progress >= 1;
        for (int m = 0; m < 3; m++) {
            out.add(
                    node(
                            "master-" + m,
                            "master",
                            rolling ? Phase.UPDATED : Phase.PENDING,
                            started));
        }
        for (int n = 0; n < nodes; n++) {
            String pool = poolNames.get(1 + n % Math.max(1, pools));
            out.add(
                    node(
                            String.format("worker-%s-%05d", pool.replace("worker-", "w"), n),
                            pool,
                            rolling ? phaseFor(random) : Phase.PENDING,
                            started));
        }
        return out;
    }

    private enum Phase {
        PENDING,
        DRAINING,
        UPDATING,
        REBOOTING,
        UPDATED,
        DEGRADED,
        NOT_READY
    }

    private static Phase phaseFor(Random random) {
        int r = random.nextInt(100);
        if (r < 40) return Phase.UPDATED;
        if (r < 48) return Phase.DRAINING;
        if (r < 54) return Phase.UPDATING;
        if (r < 58) return Phase.REBOOTING;
        if (r < 59) return Phase.DEGRADED;
        if (r < 60) return Phase.NOT_READY;
        return Phase.PENDING;
    }

    private ClusterVersion clusterVersion(Instant started) {
        boolean done = progress >= 1;
        return new ClusterVersionBuilder()
                .withNewMetadata()
                .withName("version")
                .endMetadata()
                .withNewSpec()
                .withClusterID("6d3f0a9e-3c5b-4a51-9b7e-1f2a3c4d5e6f")
                .withChannel("stable-4.17")
                .endSpec()
                .withNewStatus()
                // required by the ClusterVersion CRD, as the controller always writes them
                .withObservedGeneration(1L)
                .withVersionHash("synthetic-" + TO)
                .withNewDesired()
                .withVersion(TO)
                .withImage("quay.io/upshift/release@sha256:" + "b".repeat(64))
                .endDesired()
                .withHistory(
                        new UpdateHistoryBuilder()
                                .withState(done ? "Completed" : "Partial")
                                .withVersion(TO)
                                .withImage("quay.io/upshift/release@sha256:" + "b".repeat(64))
                                .withVerified(true)
                                .withStartedTime(started.toString())
                                .withCompletionTime(
                                        done ? at.minus(Duration.ofMinutes(5)).toString() : null)
                                .build(),
                        new UpdateHistoryBuilder()
                                .withState("Completed")
                                .withVersion(FROM)
                                .withImage("quay.io/upshift/release@sha256:" + "a".repeat(64))
                                .withVerified(false)
                                .withStartedTime(started.minus(Duration.ofDays(30)).toString())
                                .withCompletionTime(
                                        started.minus(Duration.ofDays(30))
                                                .plus(Duration.ofMinutes(52))
                                                .toString())
                                .build())
                .withConditions(
                        condition("Available", "True", "", "Done applying " + FROM, started),
                        condition("Failing", "False", "", "", started),
                        condition(
                                "Progressing",
                                done ? "False" : "True",
                                "",
                                done ? "Cluster version is " + TO : "Working towards " + TO,
                                done ? at.minus(Duration.ofMinutes(5)) : started))
                .endStatus()
                .build();
    }

    private ClusterOperator operator(int i, boolean updated, boolean updating, Instant started) {
        String name = String.format("operator-%02d", i);
        Instant changed =
                updated
                        ? started.plus(Duration.ofSeconds(30L * (i + 1)))
                        : updating ? at.minus(Duration.ofMinutes(3)) : started;
        if (changed.isAfter(at)) {
            changed = at;
        }
        return new ClusterOperatorBuilder()
                .withNewMetadata()
                .withName(name)
                .withAnnotations(
                        Map.of(
                                "include.release.openshift.io/self-managed-high-availability",
                                "true"))
                .endMetadata()
                .withNewSpec() // required by the ClusterOperator CRD
                .endSpec()
                .withNewStatus()
                .addNewVersion()
                .withName("operator")
                .withVersion(updated ? TO : FROM)
                .endVersion()
                .withConditions(
                        condition("Available", "True", "AsExpected", "", started),
                        condition("Degraded", "False", "AsExpected", "", started),
                        condition(
                                "Progressing",
                                updating ? "True" : "False",
                                updating ? "Rolling" : "AsExpected",
                                updating
                                        ? "Rolling out new pods of "
                                                + name
                                                + "\n2 of 3 replicas updated"
                                        : "",
                                changed))
                .endStatus()
                .build();
    }

    private static ClusterOperatorStatusCondition condition(
            String type, String status, String reason, String message, Instant when) {
        return new ClusterOperatorStatusConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .withLastTransitionTime(when.toString())
                .build();
    }

    private static MachineConfigPool pool(String name) {
        String role = name.equals("master") ? "master" : name;
        return new MachineConfigPoolBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(
                        new LabelSelectorBuilder()
                                .withMatchLabels(Map.of("node-role.kubernetes.io/" + role, ""))
                                .build())
                .withNewConfiguration()
                .withName(rendered(name, TO))
                .endConfiguration()
                .withPaused(false)
                .endSpec()
                .build();
    }

    private static MachineConfig config(String pool, String version) {
        return new MachineConfigBuilder()
                .withNewMetadata()
                .withName(rendered(pool, version))
                .withAnnotations(Map.of(MCO + "release-image-version", version))
                .endMetadata()
                .withNewSpec()
                .withOsImageURL(
                        "quay.io/upshift/os@sha256:" + (version.equals(TO) ? "d" : "c").repeat(64))
                .endSpec()
                .build();
    }

    static String rendered(String pool, String version) {
        return "rendered-" + pool + "-" + Integer.toHexString((pool + version).hashCode());
    }

    private Node node(String name, String pool, Phase phase, Instant started) {
        String from = rendered(pool, FROM);
        String to = rendered(pool, TO);
        String current = phase == Phase.UPDATED ? to : from;
        String desired = phase == Phase.PENDING ? from : to;
        String state =
                switch (phase) {
                    case DRAINING, UPDATING -> "Working";
                    case REBOOTING -> "Rebooting";
                    case DEGRADED -> "Degraded";
                    default -> "Done";
                };
        String drain = phase == Phase.DRAINING ? "drain-" + to : "uncordon-" + current;
        boolean ready = phase != Phase.NOT_READY;
        List<NodeCondition> conditions =
                List.of(
                        nodeCondition(
                                "Ready",
                                ready ? "True" : "False",
                                ready ? "KubeletReady" : "KubeletNotReady",
                                ready
                                        ? "kubelet is posting ready status"
                                        : "container runtime is down",
                                ready
                                        ? started.minus(Duration.ofDays(30))
                                        : at.minus(Duration.ofMinutes(12))),
                        nodeCondition(
                                "DiskPressure",
                                "False",
                                "KubeletHasNoDiskPressure",
                                "kubelet has no disk pressure",
                                started.minus(Duration.ofDays(30))),
                        nodeCondition(
                                "NetworkUnavailable",
                                "False",
                                "RouteCreated",
                                "route created",
                                started.minus(Duration.ofDays(30))));
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(
                        Map.of(
                                "node-role.kubernetes.io/" + pool,
                                "",
                                "kubernetes.io/hostname",
                                name))
                .addToAnnotations(MCO + "currentConfig", current)
                .addToAnnotations(MCO + "desiredConfig", desired)
                .addToAnnotations(MCO + "state", state)
                .addToAnnotations(
                        MCO + "reason",
                        phase == Phase.DEGRADED
                                ? "failed to drain node: " + name + " after 1 hour"
                                : "")
                .addToAnnotations(MCO + "desiredDrain", drain)
                .addToAnnotations(
                        MCO + "lastAppliedDrain",
                        phase == Phase.DRAINING ? "uncordon-" + from : drain)
                .endMetadata()
                .withNewSpec()
                .withUnschedulable(
                        (phase == Phase.DRAINING
                                        || phase == Phase.UPDATING
                                        || phase == Phase.REBOOTING)
                                ? Boolean.TRUE
                                : null)
                .endSpec()
                .withNewStatus()
                .withConditions(conditions)
                .endStatus()
                .build();
    }

    private static NodeCondition nodeCondition(
            String type, String status, String reason, String message, Instant when) {
        return new NodeConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .withLastTransitionTime(when.toString())
                .withLastHeartbeatTime(when.toString())
                .build();
    }
}
