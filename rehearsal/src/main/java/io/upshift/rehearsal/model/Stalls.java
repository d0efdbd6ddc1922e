package io.upshift.rehearsal.model;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolCondition;
import io.upshift.base.kube.Disruptions;
import io.upshift.clusterversion.model.OperatorLevel;
import io.upshift.pools.model.DrainEvents;
import io.upshift.pools.model.DrainablePods;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.PoolMembers;
import io.upshift.status.estimate.ControlPlaneEstimate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What would stall the update once started, each in the words of whoever would report it: a
 * ClusterOperator not available or degraded holds its run-level (the cluster-version controller
 * waits for it there); a paused or degraded pool, a node that is not ready (the pool controller
 * does not pick it, and it counts against maxUnavailable), a node no agent reports on, a degraded
 * node; and a PodDisruptionBudget that allows no disruption, which refuses the drain of every node
 * holding one of its pods (the node agent retries until its drain timeout, then degrades the node).
 * The cluster is taken as it is now: nothing that would change meanwhile is guessed at.
 */
public final class Stalls {
    static final String CONTROLLER = Refusals.CONTROLLER;
    static final String POOLS = "pool controller";
    static final String AGENT = "node agent";

    /** The node agent's drain timeout, as upstream's daemon has it. */
    public static final Duration DRAIN_TIMEOUT = Duration.ofHours(1);

    private Stalls() {}

    public static List<Blocker> of(ClusterFacts facts, Target target) {
        List<Blocker> out = new ArrayList<>();
        operators(facts, target, out);
        if (rollsNodes(target)) nodes(facts, out);
        return out;
    }

    /**
     * Whether the update rolls the nodes: its payload has the machine-config operator (or its
     * run-levels are not known, and it is taken to).
     */
    public static boolean rollsNodes(Target target) {
        return target.levels().isEmpty()
                || !target.runLevelOf(ControlPlaneEstimate.MACHINE_CONFIG).isEmpty();
    }

    private static void operators(ClusterFacts facts, Target target, List<Blocker> out) {
        for (ClusterOperator co : facts.state().operators()) {
            String name = co.getMetadata().getName();
            OperatorLevel level =
                    OperatorLevel.check(name, Map.of("operator", target.version()), co, false);
            if (!level.reason().equals("ClusterOperatorNotAvailable")
                    && !level.reason().equals("ClusterOperatorDegraded")) continue;
            String runLevel = target.runLevelOf(name);
            if (runLevel.isEmpty() && !target.levels().isEmpty()) {
                out.add(
                        Blocker.warns(
                                CONTROLLER,
                                level.reason(),
                                level.message() + " (the target release does not update it)"));
                continue;
            }
            out.add(
                    Blocker.stalls(
                            CONTROLLER,
                            level.reason(),
                            level.message(),
                            runLevel.isEmpty()
                                    ? Blocker.Place.NOWHERE
                                    : Blocker.Place.runLevel(runLevel)));
        }
    }

    private static void nodes(ClusterFacts facts, List<Blocker> out) {
        Map<String, List<Node>> members =
                PoolMembers.assign(facts.state().pools(), facts.state().nodes());
        Map<String, String> poolOf = new LinkedHashMap<>();
        for (MachineConfigPool pool : facts.state().pools()) {
            String name = pool.getMetadata().getName();
            List<Node> nodes = members.get(name);
            if (nodes.isEmpty()) continue;
            if (pool.getSpec() != null && Boolean.TRUE.equals(pool.getSpec().getPaused())) {
                out.add(
                        Blocker.stalls(
                                POOLS,
                                "Paused",
                                "MachineConfigPool "
                                        + name
                                        + " is paused: its "
                                        + count(nodes.size(), "node")
                                        + " stay on their current config until it is unpaused",
                                Blocker.Place.pool(name)));
                continue;
            }
            degraded(pool).ifPresent(out::add);
            for (Node n : nodes) {
                poolOf.put(n.getMetadata().getName(), name);
                node(name, n).ifPresent(out::add);
            }
        }
        budgets(facts, poolOf, out);
    }

    private static Optional<Blocker> degraded(MachineConfigPool pool) {
        List<MachineConfigPoolCondition> conditions =
                pool.getStatus() == null || pool.getStatus().getConditions() == null
                        ? List.of()
                        : pool.getStatus().getConditions();
        for (MachineConfigPoolCondition c : conditions) {
            if ("Degraded".equals(c.getType()) && "True".equals(c.getStatus()))
                return Optional.of(
                        Blocker.stalls(
                                POOLS,
                                c.getReason() == null ? "Degraded" : c.getReason(),
                                "MachineConfigPool "
                                        + pool.getMetadata().getName()
                                        + " is degraded: "
                                        + (c.getMessage() == null ? "" : c.getMessage()),
                                Blocker.Place.pool(pool.getMetadata().getName())));
        }
        return Optional.empty();
    }

    private static Optional<Blocker> node(String pool, Node node) {
        String name = node.getMetadata().getName();
        Blocker.Place place = Blocker.Place.nodes(pool, List.of(name));
        NodeCondition ready = readyCondition(node);
        if (ready == null || !"True".equals(ready.getStatus())) {
            String why =
                    ready == null
                            ? "it has no Ready condition"
                            : "Ready="
                                    + ready.getStatus()
                                    + (ready.getMessage() == null || ready.getMessage().isEmpty()
                                            ? ""
                                            : ": " + ready.getMessage());
            return Optional.of(
                    Blocker.stalls(
                            POOLS,
                            "NodeNotReady",
                            "Node "
                                    + name
                                    + " is not ready ("
                                    + why
                                    + "): its agent cannot be reached, the pool controller does not"
                                    + " pick it, and it counts against the pool's maxUnavailable",
                            place));
        }
        Map<String, String> a =
                node.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : node.getMetadata().getAnnotations();
        String state = a.getOrDefault(NodeAnnotations.STATE, "");
        if (state.isEmpty()) {
            return Optional.of(
                    Blocker.stalls(
                            AGENT,
                            "NoAgent",
                            "No node agent has reported on node "
                                    + name
                                    + " (it has no "
                                    + NodeAnnotations.STATE
                                    + " annotation): nothing would apply its new config",
                            place));
        }
        if (state.equals(NodeAnnotations.DEGRADED)
                || state.equals(NodeAnnotations.UNRECONCILABLE)) {
            return Optional.of(
                    Blocker.stalls(
                            AGENT,
                            "Node" + state,
                            "Node "
                                    + name
                                    + " is "
                                    + state
                                    + ": "
                                    + a.getOrDefault(NodeAnnotations.REASON, ""),
                            place));
        }
        return Optional.empty();
    }

    /**
     * Budgets that allow no disruption, with the rolling nodes whose drain they would refuse: one
     * blocker per budget, naming each such node and the first of its pods the budget holds.
     */
    private static void budgets(ClusterFacts facts, Map<String, String> poolOf, List<Blocker> out) {
        for (PodDisruptionBudget pdb : facts.budgets()) {
            String budget = pdb.getMetadata().getNamespace() + "/" + pdb.getMetadata().getName();
            List<Pod> inNamespace =
                    facts.pods().stream()
                            .filter(
                                    p ->
                                            pdb.getMetadata()
                                                    .getNamespace()
                                                    .equals(p.getMetadata().getNamespace()))
                            .toList();
            if (allowed(pdb, inNamespace) > 0) continue;
            Map<String, String> firstPod = new LinkedHashMap<>();
            for (Pod p : inNamespace) {
                String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
                if (node == null || !poolOf.containsKey(node)) continue;
                if (!Disruptions.covers(pdb, p) || !DrainablePods.evicted(p)) continue;
                firstPod.putIfAbsent(
                        node, p.getMetadata().getNamespace() + "/" + p.getMetadata().getName());
            }
            if (firstPod.isEmpty()) continue;
            List<String> lines = new ArrayList<>();
            firstPod.forEach(
                    (node, pod) ->
                            lines.add(
                                    "node "
                                            + node
                                            + " stays Draining: "
                                            + DrainEvents.refusal(budget, pod)));
            String node = firstPod.keySet().iterator().next();
            out.add(
                    Blocker.stalls(
                            AGENT,
                            DrainEvents.REASON,
                            "PodDisruptionBudget "
                                    + budget
                                    + " allows no disruption ("
                                    + terms(pdb)
                                    + "): "
                                    + String.join("; ", lines)
                                    + ". At its drain timeout the agent degrades the node: "
                                    + DrainEvents.timedOut(node, DRAIN_TIMEOUT),
                            Blocker.Place.nodes(poolOf.get(node), List.copyOf(firstPod.keySet()))));
        }
    }

    /**
     * Disruptions the budget allows now: its status as the disruption controller wrote it, else
     * counted from the pods.
     */
    static int allowed(PodDisruptionBudget pdb, List<Pod> pods) {
        if (pdb.getStatus() != null && pdb.getStatus().getDisruptionsAllowed() != null)
            return pdb.getStatus().getDisruptionsAllowed();
        return Disruptions.allowed(pdb, pods);
    }

    private static String terms(PodDisruptionBudget pdb) {
        var spec = pdb.getSpec();
        String rule =
                spec.getMinAvailable() != null
                        ? "minAvailable " + value(spec.getMinAvailable())
                        : spec.getMaxUnavailable() != null
                                ? "maxUnavailable " + value(spec.getMaxUnavailable())
                                : "no minimum";
        var status = pdb.getStatus();
        return status != null && status.getCurrentHealthy() != null
                ? rule + ", " + status.getCurrentHealthy() + " healthy"
                : rule;
    }

    private static String value(IntOrString v) {
        return v.getIntVal() != null ? v.getIntVal().toString() : v.getStrVal();
    }

    private static NodeCondition readyCondition(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) return null;
        return node.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()))
                .findFirst()
                .orElse(null);
    }

    static String count(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
