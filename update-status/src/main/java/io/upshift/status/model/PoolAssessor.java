package io.upshift.status.model;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.update.ImpactLevel;
import io.upshift.api.update.ScopeType;
import io.upshift.base.gofmt.GoDuration;
import io.upshift.base.gofmt.GoQuote;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Assesses a MachineConfigPool and its nodes: node facts in display order, node counts, and health
 * insights.
 */
final class PoolAssessor {
    static final String MASTER = "master";

    /** Upshift's pool condition: a rollout control holds the pool's next node. */
    static final String ROLLOUT_HELD = "RolloutHeld";

    static final String HOOK_FAILED = "HookFailed";

    static final String ROLLOUT_DOCS = "Upshift's docs/node-pools.md, section Rollout controls";

    /** Counts of a pool's nodes by kind, and the pool's overall assessment. */
    record PoolFacts(
            String name,
            ScopeType scope,
            String assessment,
            int total,
            int available,
            int progressing,
            int outdated,
            int draining,
            int excluded,
            int degraded,
            List<NodeFacts> nodes) {}

    private static final Comparator<NodeFacts> DISPLAY_ORDER =
            Comparator.comparing(NodeFacts::assessment)
                    .thenComparing(NodeFacts::phase)
                    .thenComparing(NodeFacts::name);

    private final NodeAssessor nodes;
    private final Instant wallNow;

    /**
     * @param wallNow the real current time: how long a node has been unavailable is judged against
     *     it
     */
    PoolAssessor(NodeAssessor nodes, Instant wallNow) {
        this.nodes = nodes;
        this.wallNow = wallNow;
    }

    PoolFacts assess(
            MachineConfigPool pool, List<Node> poolNodes, List<HealthInsights.Keyed> health) {
        String name = pool.getMetadata().getName();
        ScopeType scope = MASTER.equals(name) ? ScopeType.ControlPlane : ScopeType.WorkerPool;
        List<NodeFacts> facts = new ArrayList<>(poolNodes.size());
        for (Node node : poolNodes) {
            NodeFacts f = nodes.assess(node, pool);
            facts.add(f);
            nodeHealth(f, scope, health);
        }
        facts.sort(DISPLAY_ORDER);

        int available = 0,
                degraded = 0,
                excluded = 0,
                outdated = 0,
                pending = 0,
                draining = 0,
                progressing = 0;
        int updated = 0;
        for (NodeFacts f : facts) {
            available += f.isUnavailable() ? 0 : 1;
            degraded += f.isDegraded() ? 1 : 0;
            switch (f.phase()) {
                case Paused -> {
                    excluded++;
                    outdated++;
                }
                case Pending -> {
                    pending++;
                    outdated++;
                }
                case Draining -> {
                    draining++;
                    outdated++;
                    progressing += f.isDegraded() ? 0 : 1;
                }
                case Updating, Rebooting -> {
                    outdated++;
                    progressing += f.isDegraded() ? 0 : 1;
                }
                case Updated -> updated++;
            }
        }
        int total = facts.size();
        String assessment =
                updated == total
                        ? "Completed"
                        : pending == total
                                ? "Pending"
                                : degraded > 0
                                        ? "Degraded"
                                        : excluded > 0 ? "Excluded" : "Progressing";
        if (excluded > 0
                && pool.getSpec() != null
                && Boolean.TRUE.equals(pool.getSpec().getPaused())) {
            health.add(
                    HealthInsights.of(
                            "pool-paused-" + name,
                            null,
                            ScopeType.WorkerPool,
                            HealthInsights.pool(name),
                            ImpactLevel.Warning,
                            HealthInsights.UPDATE_STALLED,
                            "Outdated nodes in a paused pool '" + name + "' will not be updated",
                            "Pool is paused, which stops all changes to the nodes in the pool,"
                                + " including updates. The nodes will not be updated until the pool"
                                + " is unpaused by the administrator.",
                            HealthInsights.PAUSED_POOL_DOCS));
        }
        rolloutHeld(pool, scope, health);
        return new PoolFacts(
                name,
                scope,
                assessment,
                total,
                available,
                progressing,
                outdated,
                draining,
                excluded,
                degraded,
                List.copyOf(facts));
    }

    /**
     * Upshift's {@code RolloutHeld} pool condition (a soak, a maintenance window or another rollout
     * control holds the pool's next node): an Info insight since the condition's transition, so
     * that a pool waiting on purpose is not taken for a stalled one; a Warning when what holds it
     * is a hook that failed ({@value #HOOK_FAILED}), which waits for an administrator.
     */
    private static void rolloutHeld(
            MachineConfigPool pool, ScopeType scope, List<HealthInsights.Keyed> health) {
        if (pool.getStatus() == null || pool.getStatus().getConditions() == null) return;
        String name = pool.getMetadata().getName();
        pool.getStatus().getConditions().stream()
                .filter(c -> ROLLOUT_HELD.equals(c.getType()) && "True".equals(c.getStatus()))
                .findFirst()
                .ifPresent(
                        c ->
                                health.add(
                                        HealthInsights.of(
                                                "pool-held-" + name,
                                                Times.parse(c.getLastTransitionTime()),
                                                scope,
                                                HealthInsights.pool(name),
                                                HOOK_FAILED.equals(c.getReason())
                                                        ? ImpactLevel.Warning
                                                        : ImpactLevel.Info,
                                                HealthInsights.UPDATE_SPEED,
                                                "Pool "
                                                        + name
                                                        + " holds its next node: "
                                                        + c.getMessage(),
                                                "A rollout control of the pool ("
                                                        + c.getReason()
                                                        + ") holds its next node; nodes already"
                                                        + " updating finish. "
                                                        + c.getMessage(),
                                                ROLLOUT_DOCS)));
    }

    private void nodeHealth(NodeFacts f, ScopeType scope, List<HealthInsights.Keyed> health) {
        if (f.isUnavailable() && !f.isUpdating() && seriouslyUnavailable(f)) {
            List<String> summaries = new ArrayList<>();
            List<String> descriptions = new ArrayList<>();
            Instant since = null;
            for (NodeFacts.UnavailableReason r : f.unavailable()) {
                summaries.add(summary(f.name(), r.reason()));
                descriptions.add(description(r));
                if (r.since() != null && (since == null || r.since().isBefore(since))) {
                    since = r.since();
                }
            }
            String description =
                    f.isDegraded() ? f.degradedReason() : String.join(" | ", descriptions);
            health.add(
                    HealthInsights.of(
                            "node-unavailable-" + f.name(),
                            since,
                            scope,
                            HealthInsights.node(f.name()),
                            ImpactLevel.Warning,
                            HealthInsights.UPDATE_SPEED,
                            String.join(" | ", summaries),
                            description,
                            HealthInsights.MCO_DOCS));
        }
        if (f.isDegraded()) {
            health.add(
                    HealthInsights.of(
                            "node-degraded-" + f.name(),
                            null,
                            scope,
                            HealthInsights.node(f.name()),
                            ImpactLevel.Error,
                            HealthInsights.UPDATE_STALLED,
                            "Node " + f.name() + " is degraded",
                            f.degradedReason(),
                            HealthInsights.MCO_DOCS));
        }
    }

    /**
     * Unavailable in a way that needs an administrator: not merely cordoned, updating, or briefly
     * not ready.
     */
    private boolean seriouslyUnavailable(NodeFacts f) {
        for (NodeFacts.UnavailableReason r : f.unavailable()) {
            String reason = r.reason();
            if (reason.equals(NodeAssessor.UNSCHEDULABLE)
                    || reason.equals(NodeAssessor.MCD_WORKING)) {
                continue;
            }
            long since = r.since() == null ? Long.MAX_VALUE : Times.between(r.since(), wallNow);
            if (reason.equals(NodeAssessor.NOT_READY) && since < 5 * GoDuration.MINUTE) {
                continue;
            }
            if ((reason.equals(NodeAssessor.DISK_PRESSURE)
                            || reason.equals(NodeAssessor.NETWORK_UNAVAILABLE))
                    && since < GoDuration.MINUTE) {
                continue;
            }
            return true;
        }
        return false;
    }

    private static String summary(String node, String reason) {
        return switch (reason) {
            case NodeAssessor.NOT_READY -> "Node " + node + " is not ready";
            case NodeAssessor.DISK_PRESSURE -> "Node " + node + " has disk pressure";
            case NodeAssessor.NETWORK_UNAVAILABLE -> "Node " + node + " has unavailable network";
            default -> reason;
        };
    }

    private static String description(NodeFacts.UnavailableReason r) {
        return switch (r.reason()) {
            case NodeAssessor.NOT_READY -> condition("Ready", "True", r);
            case NodeAssessor.DISK_PRESSURE -> condition("DiskPressure", "False", r);
            case NodeAssessor.NETWORK_UNAVAILABLE -> condition("NetworkUnavailable", "False", r);
            default -> r.reason();
        };
    }

    private static String condition(String type, String good, NodeFacts.UnavailableReason r) {
        return "Node has a "
                + type
                + "!="
                + good
                + " condition with Reason "
                + GoQuote.quote(r.reason())
                + " and message "
                + GoQuote.quote(r.conditionMessage());
    }
}
