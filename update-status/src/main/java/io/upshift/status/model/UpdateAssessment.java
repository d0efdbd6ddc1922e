package io.upshift.status.model;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.update.ControlPlane;
import io.upshift.api.update.HealthInsight;
import io.upshift.api.update.Informer;
import io.upshift.api.update.Insight;
import io.upshift.api.update.NodeInsight;
import io.upshift.api.update.Pool;
import io.upshift.api.update.PoolInsight;
import io.upshift.api.update.ResourceRef;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.GoDuration;
import io.upshift.base.gofmt.GoNumbers;
import io.upshift.base.kube.LabelSelectors;
import io.upshift.pools.model.NodeAnnotations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The update status engine: from the cluster's resources to the insights of an UpdateStatus. Pure:
 * the caller passes the evaluation time and the wall-clock time (they differ only when replaying a
 * snapshot).
 *
 * <p>Layout of the result: the control plane has informers {@code cluster-version} (the
 * ClusterVersion and every platform ClusterOperator, in list order), {@code nodes} (the master pool
 * and its nodes, in display order) and {@code health} (every health insight of the cluster, in the
 * order they were raised, which is the tie-break of the health listing). Each worker pool has an
 * informer {@code nodes}.
 */
public final class UpdateAssessment {
    public static final String CLUSTER_VERSION_INFORMER = "cluster-version";
    public static final String NODES_INFORMER = "nodes";
    public static final String HEALTH_INFORMER = "health";

    private UpdateAssessment() {}

    public static UpdateStatusStatus assess(ClusterState state, Instant at, Instant wallNow) {
        ClusterVersion cv = state.clusterVersion();
        if (cv == null || cv.getStatus() == null) {
            throw new AssessmentException(
                    "no cluster version information available - you must be connected to an"
                            + " OpenShift version 4 server to fetch the current version");
        }
        if (state.operators().isEmpty()) {
            throw new AssessmentException(
                    "no cluster operator information available - you must be connected to an"
                            + " OpenShift version 4 server");
        }
        ClusterOperatorStatusCondition progressing =
                Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Progressing");
        if (progressing == null) {
            throw new AssessmentException(
                    "no current Progressing info, see `oc describe clusterversion` for more"
                            + " details.");
        }
        String acquired = Times.format(at);
        List<UpdateHistory> history = ControlPlaneAssessor.history(cv);
        boolean multiArchInProgress =
                ControlPlaneAssessor.isMultiArchMigration(history)
                        && "True".equals(progressing.getStatus());
        NodeAssessor nodeAssessor =
                new NodeAssessor(
                        history.isEmpty()
                                ? ""
                                : ControlPlaneAssessor.nullToEmpty(history.get(0).getVersion()),
                        multiArchInProgress,
                        releaseVersions(state.machineConfigs()));
        PoolAssessor poolAssessor = new PoolAssessor(nodeAssessor, wallNow);

        List<HealthInsights.Keyed> health = new ArrayList<>();
        List<Node> nodes =
                MachineConfigNodes.withAnnotations(state.nodes(), state.machineConfigNodes());
        Map<String, List<Node>> nodesByPool = nodesByPool(state.pools(), nodes);
        List<RolloutEstimates.PoolInput> assessedPools = new ArrayList<>(state.pools().size());
        for (MachineConfigPool pool : state.pools()) {
            List<Node> poolNodes =
                    nodesByPool.getOrDefault(pool.getMetadata().getName(), List.of());
            assessedPools.add(
                    new RolloutEstimates.PoolInput(
                            pool, poolAssessor.assess(pool, poolNodes, health), poolNodes));
        }

        Instant updateStarted =
                history.isEmpty()
                        ? Times.parse(progressing.getLastTransitionTime())
                        : Times.parse(history.get(0).getStartedTime());
        state.alerts()
                .ifPresent(
                        alerts ->
                                AlertInsights.add(
                                        alerts,
                                        updateStarted == null ? Times.ZERO : updateStarted,
                                        health));
        DrainBlocks.add(nodes, state.drainEvents(), state.machineConfigNodes(), at, health);

        ControlPlaneAssessor.Result cp =
                new ControlPlaneAssessor(at)
                        .assess(cv, state.operators(), state.mcoImage(), health);
        boolean controlPlaneDone = "Completed".equals(cp.clusterVersion().assessment());
        Instant cpStarted = controlPlaneDone ? null : Times.parse(cp.clusterVersion().startedAt());
        RolloutEstimates estimates =
                RolloutEstimates.of(
                        cv,
                        controlPlaneDone ? null : cpStarted == null ? at : cpStarted,
                        assessedPools,
                        at);
        HeldUpdate held = controlPlaneDone ? HeldUpdate.of(cv, at) : null;
        List<Insight> masterInsights = new ArrayList<>();
        ResourceRef masterPool = null;
        List<Pool> workerPools = new ArrayList<>();
        for (RolloutEstimates.PoolInput p : assessedPools) {
            String name = p.facts().name();
            List<Insight> insights = poolInsights(p.facts(), acquired, estimates);
            if (PoolAssessor.MASTER.equals(name)) {
                masterPool = HealthInsights.pool(name);
                masterInsights = insights;
            } else {
                workerPools.add(
                        new Pool(
                                List.of(),
                                name,
                                HealthInsights.pool(name),
                                List.of(new Informer(NODES_INFORMER, insights))));
            }
        }
        List<Insight> cpInsights = new ArrayList<>();
        String cvName = cv.getMetadata().getName();
        cpInsights.add(
                Insight.of(
                        InsightIds.of("cv", cvName),
                        acquired,
                        cp.clusterVersion()
                                .withUpshiftEstimate(
                                        held == null
                                                ? estimates.controlPlane()
                                                : RolloutEstimates.held(
                                                        cv,
                                                        held.requested(),
                                                        held.opens(),
                                                        assessedPools))));
        cp.operators()
                .forEach(
                        o ->
                                cpInsights.add(
                                        Insight.of(InsightIds.of("co", o.name()), acquired, o)));

        List<Insight> healthInsights = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (HealthInsights.Keyed h : health) {
            healthInsights.add(Insight.of(uniqueId(h.key(), seen), acquired, h.insight()));
        }
        List<Informer> cpInformers = new ArrayList<>();
        cpInformers.add(new Informer(CLUSTER_VERSION_INFORMER, cpInsights));
        if (!masterInsights.isEmpty()) {
            cpInformers.add(new Informer(NODES_INFORMER, masterInsights));
        }
        cpInformers.add(new Informer(HEALTH_INFORMER, healthInsights));
        ControlPlane controlPlane =
                new ControlPlane(
                        List.of(), HealthInsights.clusterVersion(cvName), masterPool, cpInformers);
        return new UpdateStatusStatus(List.of(), controlPlane, workerPools);
    }

    /** Two alerts of one name in one namespace are two insights; number the repeats. */
    private static String uniqueId(String key, Map<String, Integer> seen) {
        int n = seen.merge(key, 1, Integer::sum);
        return InsightIds.of("health", n == 1 ? key : key + "-" + n);
    }

    private static List<Insight> poolInsights(
            PoolAssessor.PoolFacts facts, String acquired, RolloutEstimates estimates) {
        List<Insight> insights = new ArrayList<>(facts.nodes().size() + 1);
        ResourceRef poolRef = HealthInsights.pool(facts.name());
        Integer completion =
                facts.total() == 0
                        ? null
                        : Integer.valueOf(
                                GoNumbers.percent(
                                        (double) (facts.total() - facts.outdated())
                                                / facts.total()
                                                * 100.0));
        insights.add(
                Insight.of(
                        InsightIds.of("mcp", facts.name()),
                        acquired,
                        new PoolInsight(
                                List.of(),
                                facts.name(),
                                poolRef,
                                facts.scope(),
                                facts.assessment(),
                                completion,
                                List.of(
                                        new PoolInsight.Summary("Total", facts.total()),
                                        new PoolInsight.Summary("Available", facts.available()),
                                        new PoolInsight.Summary("Progressing", facts.progressing()),
                                        new PoolInsight.Summary("Outdated", facts.outdated()),
                                        new PoolInsight.Summary("Draining", facts.draining()),
                                        new PoolInsight.Summary("Excluded", facts.excluded()),
                                        new PoolInsight.Summary("Degraded", facts.degraded())),
                                estimates.pool(facts.name()))));
        for (NodeFacts n : facts.nodes()) {
            insights.add(
                    Insight.of(
                            InsightIds.of("node", n.name()),
                            acquired,
                            nodeInsight(n, facts, poolRef, estimates.node(n.name()))));
        }
        return insights;
    }

    private static NodeInsight nodeInsight(
            NodeFacts n,
            PoolAssessor.PoolFacts pool,
            ResourceRef poolRef,
            UpshiftEstimate estimate) {
        String updatingReason =
                switch (n.phase()) {
                    case Updated -> "Completed";
                    default -> n.phase().name();
                };
        var updating =
                InsightConditions.of(NodeInsight.UPDATING, n.isUpdating(), updatingReason, "");
        var available =
                n.isUnavailable()
                        ? InsightConditions.of(
                                NodeInsight.AVAILABLE,
                                false,
                                "Unavailable",
                                String.join(
                                        " | ",
                                        n.unavailable().stream()
                                                .map(NodeFacts.UnavailableReason::reason)
                                                .toList()))
                        : InsightConditions.of(NodeInsight.AVAILABLE, true, "AsExpected", "");
        var degraded =
                n.isDegraded()
                        ? InsightConditions.of(
                                NodeInsight.DEGRADED, true, "Degraded", n.degradedReason())
                        : InsightConditions.of(NodeInsight.DEGRADED, false, "AsExpected", "");
        return new NodeInsight(
                List.of(updating, available, degraded),
                n.name(),
                HealthInsights.node(n.name()),
                poolRef,
                pool.scope(),
                n.version().isEmpty() ? null : n.version(),
                n.estimate() == null ? null : GoDuration.format(n.estimate()),
                n.message().isEmpty() ? null : n.message(),
                estimate);
    }

    private static Map<String, String> releaseVersions(List<MachineConfig> configs) {
        Map<String, String> versions = new HashMap<>(configs.size() * 2);
        for (MachineConfig mc : configs) {
            Map<String, String> a = mc.getMetadata().getAnnotations();
            // The first config of a name wins, as a linear search would find it.
            versions.putIfAbsent(
                    mc.getMetadata().getName(),
                    a == null ? "" : a.getOrDefault(NodeAnnotations.RELEASE_IMAGE_VERSION, ""));
        }
        return versions;
    }

    /**
     * master's selector first, then custom pools in list order, then worker's; unmatched nodes
     * belong nowhere.
     */
    private static Map<String, List<Node>> nodesByPool(
            List<MachineConfigPool> pools, List<Node> nodes) {
        MachineConfigPool master = null;
        MachineConfigPool worker = null;
        List<MachineConfigPool> custom = new ArrayList<>();
        for (MachineConfigPool p : pools) {
            switch (p.getMetadata().getName()) {
                case PoolAssessor.MASTER -> master = p;
                case "worker" -> worker = p;
                default -> custom.add(p);
            }
        }
        Map<String, List<Node>> byPool = new LinkedHashMap<>();
        for (Node node : nodes) {
            Map<String, String> labels = node.getMetadata().getLabels();
            String pool = null;
            if (master != null && selects(master.getSpec().getNodeSelector(), labels)) {
                pool = PoolAssessor.MASTER;
            } else {
                for (MachineConfigPool p : custom) {
                    if (selects(p.getSpec().getNodeSelector(), labels)) {
                        pool = p.getMetadata().getName();
                        break;
                    }
                }
                if (pool == null
                        && worker != null
                        && selects(worker.getSpec().getNodeSelector(), labels)) {
                    pool = "worker";
                }
            }
            if (pool != null) {
                byPool.computeIfAbsent(pool, k -> new ArrayList<>()).add(node);
            }
        }
        return byPool;
    }

    /** Health insights of a status, in the order they were raised. */
    public static List<HealthInsight> health(UpdateStatusStatus status) {
        return status.insights().stream().map(Insight::health).filter(h -> h != null).toList();
    }

    /**
     * Whether a pool's node selector selects {@code labels}; a selector oc could not read either is
     * an assessment error.
     */
    private static boolean selects(LabelSelector selector, Map<String, String> labels) {
        try {
            return LabelSelectors.matches(selector, labels);
        } catch (IllegalArgumentException e) {
            throw new AssessmentException(e.getMessage());
        }
    }
}
