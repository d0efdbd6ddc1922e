package io.upshift.pools.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which nodes of a pool start updating to its target config now, as the reference's node controller
 * picks them: capacity is maxUnavailable minus the nodes already unavailable (nodes failing on the
 * target count too); candidates are ready nodes not yet told the target, by zone then age (oldest
 * first, nodes without a zone last); the node running the controller itself goes last in the
 * control-plane pool; a paused pool picks none.
 */
public final class NodeSelection {

    private NodeSelection() {}

    public static List<PoolNode> pick(
            List<PoolNode> nodes, String target, int maxUnavailable, boolean paused) {
        if (paused) return List.of();
        long unavailable =
                nodes.stream()
                        .filter(
                                n ->
                                        n.unavailable()
                                                || (n.failing()
                                                        && target.equals(n.desiredConfig())))
                        .count();
        long capacity = maxUnavailable - unavailable;
        if (capacity <= 0) return List.of();
        List<PoolNode> candidates = new ArrayList<>();
        for (PoolNode n : nodes) {
            if (n.ready() && !target.equals(n.desiredConfig()) && !n.unavailable())
                candidates.add(n);
        }
        candidates.sort(
                Comparator.comparing(PoolNode::runsController)
                        .thenComparing(n -> n.zone().isEmpty())
                        .thenComparing(PoolNode::zone)
                        .thenComparing(PoolNode::created)
                        .thenComparing(PoolNode::name));
        return List.copyOf(candidates.subList(0, (int) Math.min(capacity, candidates.size())));
    }
}
