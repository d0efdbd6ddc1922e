package io.upshift.core.status;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.upshift.api.update.ImpactLevel;
import io.upshift.api.update.ScopeType;
import io.upshift.core.pools.NodeAnnotations;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Drains held up by a PodDisruptionBudget: the node agent records the first refused eviction of a drain as a
 * {@value #REASON} event on the node (naming the pod and the budget); while the node is still draining and that
 * refusal is older than {@link #THRESHOLD}, a health insight names the budget and the pod.
 */
public final class DrainBlocks {
    public static final String REASON = "DrainBlocked";
    public static final Duration THRESHOLD = Duration.ofMinutes(5);
    static final String PDB_DOCS = "https://kubernetes.io/docs/tasks/run-application/configure-pdb/";

    private DrainBlocks() {
    }

    /** The drain events among the given ones. */
    public static List<Event> events(List<Event> all) {
        return all.stream().filter(e -> REASON.equals(e.getReason())).toList();
    }

    static void add(List<Node> nodes, List<Event> events, Instant at, List<HealthInsights.Keyed> health) {
        for (Node node : nodes) {
            Map<String, String> a = node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations();
            String desired = a.getOrDefault(NodeAnnotations.DESIRED_DRAIN, "");
            if (!desired.startsWith("drain-") || desired.equals(a.get(NodeAnnotations.LAST_APPLIED_DRAIN))) continue;
            String name = node.getMetadata().getName();
            Event newest = null;
            for (Event e : events) {
                if (!REASON.equals(e.getReason()) || e.getInvolvedObject() == null || !name.equals(e.getInvolvedObject().getName())) continue;
                if (newest == null || Times.parse(e.getFirstTimestamp()).isAfter(Times.parse(newest.getFirstTimestamp()))) newest = e;
            }
            if (newest == null) continue;
            Instant since = Times.parse(newest.getFirstTimestamp());
            if (since == null || Duration.between(since, at).compareTo(THRESHOLD) < 0) continue;
            health.add(HealthInsights.of("drain-" + name, since, ScopeType.WorkerPool, HealthInsights.node(name), ImpactLevel.Warning,
                    HealthInsights.UPDATE_STALLED, "Node " + name + " cannot drain: " + newest.getMessage(),
                    "Node " + name + " has been draining since " + since.truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + ". A PodDisruptionBudget refuses to let "
                            + "the pod go; the node goes Degraded once the agent's drain timeout passes. Add replicas of the workload "
                            + "elsewhere or relax the budget.", PDB_DOCS));
        }
    }
}
