package io.upshift.status.model;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.upshift.api.update.ClusterOperatorInsight;
import io.upshift.api.update.ClusterVersionInsight;
import io.upshift.api.update.ControlPlane;
import io.upshift.api.update.Informer;
import io.upshift.api.update.Insight;
import io.upshift.api.update.NodeInsight;
import io.upshift.api.update.Pool;
import io.upshift.api.update.PoolInsight;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.base.conditions.Conditions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Carries what is still true from the previous UpdateStatus into a new assessment, so that an
 * unchanged cluster gives an identical status and no write: an insight whose content is unchanged
 * keeps its {@code acquiredAt}; a condition whose status is unchanged keeps its {@code
 * lastTransitionTime}; an estimated completion that moved by less than {@link
 * #ESTIMATE_TOLERANCE_SECONDS} keeps the previous value, and so does a node's Upshift estimate that
 * moved by less than a tenth of its time left.
 */
public final class InsightHistory {
    public static final long ESTIMATE_TOLERANCE_SECONDS = 60;

    private InsightHistory() {}

    /**
     * @param previous the status as last written, or null for a first evaluation
     */
    public static UpdateStatusStatus settle(
            UpdateStatusStatus previous, UpdateStatusStatus next, Instant at) {
        return settle(previous == null ? List.of() : previous.insights(), next, at);
    }

    /**
     * @param previous the insights as last written, wherever they are kept (empty for a first
     *     evaluation)
     */
    public static UpdateStatusStatus settle(
            Collection<Insight> previous, UpdateStatusStatus next, Instant at) {
        Map<String, Insight> before = new HashMap<>(previous.size() * 2);
        previous.forEach(i -> before.put(i.uid(), i));
        String now = Times.format(at);
        ControlPlane cp = next.controlPlane();
        ControlPlane settledCp =
                cp == null
                        ? null
                        : new ControlPlane(
                                cp.conditions(),
                                cp.resource(),
                                cp.poolResource(),
                                settle(cp.informers(), before, now));
        List<Pool> pools = new ArrayList<>();
        for (Pool p : next.workerPools()) {
            pools.add(
                    new Pool(
                            p.conditions(),
                            p.name(),
                            p.resource(),
                            settle(p.informers(), before, now)));
        }
        return new UpdateStatusStatus(next.conditions(), settledCp, pools, next.insightObjects());
    }

    private static List<Informer> settle(
            List<Informer> informers, Map<String, Insight> before, String now) {
        List<Informer> out = new ArrayList<>(informers.size());
        for (Informer informer : informers) {
            List<Insight> insights = new ArrayList<>(informer.insights().size());
            for (Insight i : informer.insights()) {
                insights.add(settle(i, before.get(i.uid()), now));
            }
            out.add(new Informer(informer.name(), insights));
        }
        return out;
    }

    private static Insight settle(Insight next, Insight prev, String now) {
        Insight settled =
                switch (next.type()) {
                    case ClusterVersion ->
                            Insight.of(
                                    next.uid(),
                                    now,
                                    clusterVersion(
                                            next.clusterVersion(),
                                            prev == null ? null : prev.clusterVersion(),
                                            now));
                    case ClusterOperator -> {
                        ClusterOperatorInsight o = next.clusterOperator();
                        ClusterOperatorInsight p = prev == null ? null : prev.clusterOperator();
                        yield Insight.of(
                                next.uid(),
                                now,
                                new ClusterOperatorInsight(
                                        conditions(
                                                o.conditions(),
                                                p == null ? null : p.conditions(),
                                                now),
                                        o.name(),
                                        o.resource(),
                                        o.progressingReason()));
                    }
                    case MachineConfigPool -> {
                        PoolInsight o = next.machineConfigPool();
                        PoolInsight p = prev == null ? null : prev.machineConfigPool();
                        yield Insight.of(
                                next.uid(),
                                now,
                                new PoolInsight(
                                        conditions(
                                                o.conditions(),
                                                p == null ? null : p.conditions(),
                                                now),
                                        o.name(),
                                        o.resource(),
                                        o.scopeType(),
                                        o.assessment(),
                                        o.completion(),
                                        o.summaries(),
                                        o.upshiftEstimate()));
                    }
                    case Node -> {
                        NodeInsight o = next.node();
                        NodeInsight p = prev == null ? null : prev.node();
                        yield Insight.of(
                                next.uid(),
                                now,
                                new NodeInsight(
                                        conditions(
                                                o.conditions(),
                                                p == null ? null : p.conditions(),
                                                now),
                                        o.name(),
                                        o.resource(),
                                        o.poolResource(),
                                        o.scopeType(),
                                        o.version(),
                                        o.estToComplete(),
                                        o.message(),
                                        nodeEstimate(
                                                o.upshiftEstimate(),
                                                p == null ? null : p.upshiftEstimate(),
                                                now)));
                    }
                    case Health -> next;
                };
        // an insight read back without its acquiredAt (an object someone else wrote) gets one now
        if (prev != null
                && prev.acquiredAt() != null
                && prev.withAcquiredAt(null).equals(settled.withAcquiredAt(null))) {
            return prev;
        }
        return settled.withAcquiredAt(now);
    }

    private static ClusterVersionInsight clusterVersion(
            ClusterVersionInsight o, ClusterVersionInsight p, String now) {
        String estimate = o.estimatedCompletedAt();
        if (p != null && estimate != null && p.estimatedCompletedAt() != null) {
            long moved =
                    Math.abs(
                            Times.between(
                                    Times.parse(p.estimatedCompletedAt()), Times.parse(estimate)));
            if (moved < ESTIMATE_TOLERANCE_SECONDS * 1_000_000_000L) {
                estimate = p.estimatedCompletedAt();
            }
        }
        return new ClusterVersionInsight(
                conditions(o.conditions(), p == null ? null : p.conditions(), now),
                o.resource(),
                o.assessment(),
                o.versions(),
                o.completion(),
                o.startedAt(),
                o.completedAt(),
                estimate,
                o.upshiftEstimate());
    }

    /**
     * A node's estimate that moved by less than a tenth of the time it had left (at least a second)
     * keeps its old value: a node waiting its turn moves a little with every node done before it,
     * and a pool of a thousand would otherwise rewrite every waiting node's object each time.
     */
    private static UpshiftEstimate nodeEstimate(
            UpshiftEstimate next, UpshiftEstimate prev, String now) {
        if (next == null
                || prev == null
                || next.completedAt() == null
                || prev.completedAt() == null
                || !Objects.equals(next.basis(), prev.basis())) {
            return next;
        }
        Instant before = Times.parse(prev.completedAt());
        long moved = Math.abs(Times.between(before, Times.parse(next.completedAt())));
        long tolerance = Math.max(1_000_000_000L, Times.between(Times.parse(now), before) / 10);
        return moved < tolerance ? prev : next;
    }

    private static List<Condition> conditions(
            List<Condition> next, List<Condition> prev, String now) {
        if (next == null) {
            return null;
        }
        List<Condition> out = new ArrayList<>(next.size());
        for (Condition c : next) {
            if (c.getLastTransitionTime() != null) {
                out.add(c);
                continue;
            }
            Condition before = Conditions.META.find(prev, c.getType());
            String ltt =
                    before != null
                                    && Objects.equals(before.getStatus(), c.getStatus())
                                    && before.getLastTransitionTime() != null
                            ? before.getLastTransitionTime()
                            : now;
            out.add(new ConditionBuilder(c).withLastTransitionTime(ltt).build());
        }
        return out;
    }
}
