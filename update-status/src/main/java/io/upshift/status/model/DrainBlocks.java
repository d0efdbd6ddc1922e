package io.upshift.status.model;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.upshift.api.update.ImpactLevel;
import io.upshift.api.update.ScopeType;
import io.upshift.pools.model.DrainEvents;
import io.upshift.pools.model.NodeAnnotations;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * Drains held up by a PodDisruptionBudget: the node agent records the first refused eviction of a
 * drain as a {@value #REASON} event on the node (naming the pod and the budget); while the node is
 * still draining and that refusal is older than {@link #THRESHOLD}, a health insight names the
 * budget and the pod. Without such an event (an OpenShift cluster, whose drain controller records
 * none), a drain its MachineConfigNode reports failing for longer than the threshold raises the
 * insight with the error reported there.
 */
public final class DrainBlocks {
    public static final String REASON = DrainEvents.REASON;
    public static final Duration THRESHOLD = Duration.ofMinutes(5);
    static final String PDB_DOCS =
            "https://kubernetes.io/docs/tasks/run-application/configure-pdb/";

    private DrainBlocks() {}

    /** The drain events among the given ones. */
    public static List<Event> events(List<Event> all) {
        return all.stream().filter(e -> REASON.equals(e.getReason())).toList();
    }

    static void add(
            List<Node> nodes,
            List<Event> events,
            List<MachineConfigNode> mcns,
            Instant at,
            List<HealthInsights.Keyed> health) {
        Map<String, MachineConfigNode> mcnOf = MachineConfigNodes.byName(mcns);
        for (Node node : nodes) {
            Map<String, String> a =
                    node.getMetadata().getAnnotations() == null
                            ? Map.of()
                            : node.getMetadata().getAnnotations();
            String desired = a.getOrDefault(NodeAnnotations.DESIRED_DRAIN, "");
            if (!desired.startsWith("drain-")
                    || desired.equals(a.get(NodeAnnotations.LAST_APPLIED_DRAIN))) continue;
            String name = node.getMetadata().getName();
            Event newest = null;
            for (Event e : events) {
                if (!REASON.equals(e.getReason())
                        || e.getInvolvedObject() == null
                        || !name.equals(e.getInvolvedObject().getName())) continue;
                if (newest == null
                        || Times.parse(e.getFirstTimestamp())
                                .isAfter(Times.parse(newest.getFirstTimestamp()))) newest = e;
            }
            if (newest == null) {
                MachineConfigNodes.drainFailure(mcnOf.get(name))
                        .ifPresent(
                                f -> {
                                    if (Duration.between(f.since(), at).compareTo(THRESHOLD) < 0)
                                        return;
                                    health.add(
                                            insight(
                                                    name,
                                                    f.since(),
                                                    f.error(),
                                                    "Node "
                                                            + name
                                                            + " has been draining since "
                                                            + seconds(f.since())
                                                            + ", and its MachineConfigNode reports"
                                                            + " the drain failing. An eviction"
                                                            + " refused by a PodDisruptionBudget is"
                                                            + " the usual cause: add replicas of"
                                                            + " the workload elsewhere or relax the"
                                                            + " budget."));
                                });
                continue;
            }
            Instant since = Times.parse(newest.getFirstTimestamp());
            if (since == null || Duration.between(since, at).compareTo(THRESHOLD) < 0) continue;
            health.add(
                    insight(
                            name,
                            since,
                            newest.getMessage(),
                            "Node "
                                    + name
                                    + " has been draining since "
                                    + seconds(since)
                                    + ". A PodDisruptionBudget refuses to let the pod go; the node"
                                    + " goes Degraded once the agent's drain timeout passes. Add"
                                    + " replicas of the workload elsewhere or relax the budget."));
        }
    }

    private static HealthInsights.Keyed insight(
            String node, Instant since, String why, String description) {
        return HealthInsights.of(
                "drain-" + node,
                since,
                ScopeType.WorkerPool,
                HealthInsights.node(node),
                ImpactLevel.Warning,
                HealthInsights.UPDATE_STALLED,
                "Node " + node + " cannot drain: " + why,
                description,
                PDB_DOCS);
    }

    private static Instant seconds(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS);
    }
}
