package io.upshift.core.status;

import static io.upshift.core.pools.NodeAnnotations.CURRENT_CONFIG;
import static io.upshift.core.pools.NodeAnnotations.UPDATE_DONE_AT;
import static io.upshift.core.pools.NodeAnnotations.UPDATE_STARTED_AT;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.core.estimate.ControlPlaneEstimate;
import io.upshift.core.estimate.NodeTime;
import io.upshift.core.estimate.PoolRollout;
import io.upshift.core.estimate.RunLevelTimes;
import io.upshift.core.pools.MaxUnavailable;
import io.upshift.core.pools.PoolMembers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Upshift's own estimates for the insights, beside oc's: the control plane's from the ClusterVersion's run-level times
 * ({@link RunLevelTimes}), each pool's and node's from the nodes' measured update times (the agent's
 * {@code upshift.io/update-*-at} annotations) and the pool's maxUnavailable. A node's estimate says in a fixed word
 * what it rests on, so that it changes only when its time does.
 */
final class RolloutEstimates {
    static final String NODE_UPDATING = "updating, at the pool's measured node time";
    static final String NODE_WAITING = "waiting for its turn, at the pool's measured node time";

    /** A pool as assessed, with its nodes. */
    record PoolInput(MachineConfigPool pool, PoolAssessor.PoolFacts facts, List<Node> nodes) {
    }

    private final UpshiftEstimate controlPlane;
    private final Map<String, UpshiftEstimate> pools = new HashMap<>();
    private final Map<String, UpshiftEstimate> nodes = new HashMap<>();

    private RolloutEstimates(ClusterVersion cv, boolean controlPlaneDone, List<PoolInput> inputs, Instant at) {
        Map<String, PoolRollout> rollouts = new HashMap<>();
        for (PoolInput p : inputs) {
            rollouts.put(p.facts().name(), rollout(p, at));
        }
        ControlPlaneEstimate.Result cp = null;
        if (!controlPlaneDone) {
            String desired = cv.getStatus().getDesired() == null ? null : cv.getStatus().getDesired().getImage();
            cp = desired == null ? new ControlPlaneEstimate.Result(null, null, "no desired release")
                    : ControlPlaneEstimate.of(RunLevelTimes.of(cv), desired, at, rollouts.get(PoolAssessor.MASTER));
        }
        controlPlane = cp == null ? null : new UpshiftEstimate(Times.format(cp.completedAt()), cp.basis());
        Instant rolloutStart = cp == null ? null : cp.rolloutStart();
        for (PoolInput p : inputs) {
            if (p.facts().outdated() == 0) {
                continue;
            }
            PoolRollout.Plan plan = rollouts.get(p.facts().name()).plan(rolloutStart);
            pools.put(p.facts().name(), new UpshiftEstimate(Times.format(plan.end()), plan.basis()));
            java.util.Set<String> updating = new java.util.HashSet<>();
            p.facts().nodes().forEach(f -> {
                if (f.isUpdating()) {
                    updating.add(f.name());
                }
            });
            plan.nodeEnds().forEach((node, end) -> nodes.put(node, new UpshiftEstimate(Times.format(end),
                    updating.contains(node) ? NODE_UPDATING : NODE_WAITING)));
        }
    }

    static RolloutEstimates of(ClusterVersion cv, boolean controlPlaneDone, List<PoolInput> pools, Instant at) {
        return new RolloutEstimates(cv, controlPlaneDone, pools, at);
    }

    /** The control plane's estimate; null once it is done. */
    UpshiftEstimate controlPlane() {
        return controlPlane;
    }

    /** A pool's estimate; null when none of its nodes is left to update. */
    UpshiftEstimate pool(String name) {
        return pools.get(name);
    }

    /** A node's estimate; null when it is done or its end cannot be told. */
    UpshiftEstimate node(String name) {
        return nodes.get(name);
    }

    /** The pool's nodes as the rollout model sees them, the pending ones in the pool controller's order of picking. */
    private static PoolRollout rollout(PoolInput p, Instant at) {
        Map<String, Node> byName = new HashMap<>();
        p.nodes().forEach(n -> byName.put(n.getMetadata().getName(), n));
        String poolConfig = NodeAssessor.poolConfiguration(p.pool());
        List<PoolRollout.Node> model = new ArrayList<>();
        List<Duration> thisRollout = new ArrayList<>(), earlier = new ArrayList<>();
        List<Node> pending = new ArrayList<>();
        for (NodeFacts f : p.facts().nodes()) {
            Node node = byName.get(f.name());
            Map<String, String> a = NodeAssessor.annotations(node);
            Instant started = Times.parse(a.get(UPDATE_STARTED_AT));
            Instant done = Times.parse(a.get(UPDATE_DONE_AT));
            boolean inProgress = started != null && (done == null || started.isAfter(done));
            boolean onTarget = f.phase() == NodePhase.Updated && poolConfig.equals(a.getOrDefault(CURRENT_CONFIG, ""));
            if (!inProgress && started != null && done != null) {
                (onTarget ? thisRollout : earlier).add(Duration.between(started, done));
            }
            switch (f.phase()) {
                case Updated -> model.add(new PoolRollout.Node(f.name(), PoolRollout.State.DONE, null, onTarget ? done : null));
                case Draining, Updating, Rebooting -> model.add(new PoolRollout.Node(f.name(),
                        f.isDegraded() ? PoolRollout.State.BLOCKED : PoolRollout.State.RUNNING, inProgress ? started : null, null));
                case Paused -> model.add(new PoolRollout.Node(f.name(), PoolRollout.State.BLOCKED, null, null));
                case Pending -> {
                    if (f.isDegraded()) {
                        model.add(new PoolRollout.Node(f.name(), PoolRollout.State.BLOCKED, null, null));
                    } else {
                        pending.add(node);
                    }
                }
            }
        }
        pending.sort(Comparator.comparing((Node n) -> zone(n).isEmpty()).thenComparing(RolloutEstimates::zone)
                .thenComparing(n -> n.getMetadata().getCreationTimestamp() == null ? "" : n.getMetadata().getCreationTimestamp())
                .thenComparing(n -> n.getMetadata().getName()));
        pending.forEach(n -> model.add(new PoolRollout.Node(n.getMetadata().getName(), PoolRollout.State.PENDING, null, null)));
        return new PoolRollout(model, lanes(p.pool(), p.facts().total()), NodeTime.of(thisRollout, earlier), at);
    }

    private static String zone(Node n) {
        Map<String, String> labels = n.getMetadata().getLabels();
        return labels == null ? "" : labels.getOrDefault(PoolMembers.ZONE_LABEL, "");
    }

    /** The pool's maxUnavailable as the pool controller resolves it; 1 when it cannot be read. */
    private static int lanes(MachineConfigPool pool, int nodes) {
        IntOrString max = pool.getSpec() == null ? null : pool.getSpec().getMaxUnavailable();
        try {
            return MaxUnavailable.resolve(max == null ? null : max.getIntVal() != null ? max.getIntVal() : max.getStrVal(), nodes);
        } catch (IllegalArgumentException e) {
            return 1;
        }
    }
}
