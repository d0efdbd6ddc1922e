package io.upshift.status.model;

import static io.upshift.pools.model.NodeAnnotations.CURRENT_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.DESIRED_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.DONE;
import static io.upshift.pools.model.NodeAnnotations.STATE;
import static io.upshift.pools.model.NodeAnnotations.UPDATE_DONE_AT;
import static io.upshift.pools.model.NodeAnnotations.UPDATE_STARTED_AT;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.pools.model.MaxUnavailable;
import io.upshift.pools.model.PoolMembers;
import io.upshift.status.estimate.ControlPlaneEstimate;
import io.upshift.status.estimate.NodeTime;
import io.upshift.status.estimate.PoolRollout;
import io.upshift.status.estimate.RolloutPacing;
import io.upshift.status.estimate.RunLevelTimes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Upshift's own estimates for the insights, beside oc's: the control plane's from the
 * ClusterVersion's run-level times ({@link RunLevelTimes}), each pool's and node's from the nodes'
 * measured update times (the agent's {@code upshift.io/update-*-at} annotations) and the pool's
 * maxUnavailable.
 *
 * <p>A node's place in its pool's rollout is read from its configs, as the pool controller sees it,
 * not from oc's phases (which go by release version, and so miss a rollout of a config alone): on
 * the pool's target config and Done is done, told the target config is updating, anything else
 * waits its turn. A node on the target config that has not been updated since the update started
 * also waits: the update's new config is still to come. A node's estimate says in a fixed phrase
 * what it rests on, so that it changes only when its time does.
 */
final class RolloutEstimates {
    static final String NODE_UPDATING = "updating, at the pool's measured node time";
    static final String NODE_WAITING = "waiting for its turn, at the pool's measured node time";

    /** A pool as assessed, with its nodes. */
    record PoolInput(MachineConfigPool pool, PoolAssessor.PoolFacts facts, List<Node> nodes) {}

    private final UpshiftEstimate controlPlane;
    private final Map<String, UpshiftEstimate> pools = new HashMap<>();
    private final Map<String, UpshiftEstimate> nodes = new HashMap<>();

    /**
     * @param updateStarted when the update in progress started (null when none is): nodes updated
     *     since are done with it
     */
    private RolloutEstimates(
            ClusterVersion cv, Instant updateStarted, List<PoolInput> inputs, Instant at) {
        Map<String, PoolRollout> rollouts = new HashMap<>();
        Set<String> updating = new HashSet<>();
        for (PoolInput p : inputs) {
            rollouts.put(p.facts().name(), rollout(p, updateStarted, at, updating));
        }
        // nodes done in this rollout say when: oc's phases miss a node that took a config the
        // release does not name yet
        Map<String, Instant> doneAt = new HashMap<>();
        rollouts.values()
                .forEach(
                        r ->
                                r.nodes()
                                        .forEach(
                                                n -> {
                                                    if (n.state() == PoolRollout.State.DONE
                                                            && n.doneAt() != null) {
                                                        doneAt.put(n.name(), n.doneAt());
                                                    }
                                                }));
        ControlPlaneEstimate.Result cp = null;
        if (updateStarted != null) {
            String desired =
                    cv.getStatus().getDesired() == null
                            ? null
                            : cv.getStatus().getDesired().getImage();
            cp =
                    desired == null
                            ? new ControlPlaneEstimate.Result(null, null, "no desired release")
                            : ControlPlaneEstimate.of(
                                    RunLevelTimes.of(cv),
                                    desired,
                                    at,
                                    rollouts.get(PoolAssessor.MASTER));
        }
        controlPlane =
                cp == null ? null : new UpshiftEstimate(Times.format(cp.completedAt()), cp.basis());
        Instant rolloutStart = cp == null ? null : cp.rolloutStart();
        for (PoolInput p : inputs) {
            PoolRollout rollout = rollouts.get(p.facts().name());
            if (rollout.finished()) {
                Instant last =
                        rollout.nodes().stream()
                                .map(PoolRollout.Node::doneAt)
                                .filter(t -> t != null)
                                .max(Instant::compareTo)
                                .orElse(null);
                pools.put(
                        p.facts().name(),
                        new UpshiftEstimate(Times.format(last), UpshiftEstimate.UPDATED));
                continue;
            }
            PoolRollout.Plan plan = rollout.plan(rolloutStart);
            pools.put(
                    p.facts().name(), new UpshiftEstimate(Times.format(plan.end()), plan.basis()));
            plan.nodeEnds()
                    .forEach(
                            (node, end) ->
                                    nodes.put(
                                            node,
                                            new UpshiftEstimate(
                                                    Times.format(end),
                                                    updating.contains(node)
                                                            ? NODE_UPDATING
                                                            : NODE_WAITING)));
        }
        doneAt.forEach(
                (node, when) ->
                        nodes.putIfAbsent(
                                node,
                                new UpshiftEstimate(Times.format(when), UpshiftEstimate.UPDATED)));
    }

    /**
     * @param updateStarted when the control plane's update started; null once it is done (the
     *     control plane then has no estimate, and pools only their own rollouts)
     */
    static RolloutEstimates of(
            ClusterVersion cv, Instant updateStarted, List<PoolInput> pools, Instant at) {
        return new RolloutEstimates(cv, updateStarted, pools, at);
    }

    /**
     * Upshift's estimate of an update that the update's maintenance window holds: as if it started
     * when the window opens, every node of every pool still to update (at the times its agents
     * measured before), the pools' own windows and soak times included. Its basis begins by saying
     * when it starts.
     *
     * @param requested the image (or version) asked for: not the release the run-level times are of
     */
    static UpshiftEstimate held(
            ClusterVersion cv, String requested, Instant opens, List<PoolInput> inputs) {
        Map<String, PoolRollout> rollouts = new HashMap<>();
        for (PoolInput p : inputs)
            rollouts.put(p.facts().name(), rollout(p, opens, opens, new HashSet<>(), true));
        ControlPlaneEstimate.Result cp =
                ControlPlaneEstimate.of(
                        RunLevelTimes.of(cv), requested, opens, rollouts.get(PoolAssessor.MASTER));
        StringBuilder basis =
                new StringBuilder("starts when the update's maintenance window opens at ")
                        .append(Times.format(opens))
                        .append("; control plane: ")
                        .append(cp.basis());
        Instant end = cp.completedAt();
        for (PoolInput p : inputs) {
            String name = p.facts().name();
            if (PoolAssessor.MASTER.equals(name) || end == null) continue;
            PoolRollout.Plan plan = rollouts.get(name).plan(cp.rolloutStart());
            basis.append("; pool ").append(name).append(": ").append(plan.basis());
            if (plan.end() == null) end = null;
            else if (plan.end().isAfter(end)) end = plan.end();
        }
        return new UpshiftEstimate(end == null ? null : Times.format(end), basis.toString());
    }

    /** The control plane's estimate; null once it is done. */
    UpshiftEstimate controlPlane() {
        return controlPlane;
    }

    /**
     * A pool's estimate: when its rollout will end, or ended (every node updated in this rollout).
     */
    UpshiftEstimate pool(String name) {
        return pools.get(name);
    }

    /**
     * A node's estimate: when it will be done, or was (updated in this rollout); null when that
     * cannot be told.
     */
    UpshiftEstimate node(String name) {
        return nodes.get(name);
    }

    /**
     * The pool's nodes as the rollout model sees them, the waiting ones in the pool controller's
     * order of picking; the names of those updating are added to {@code updating}.
     */
    private static PoolRollout rollout(
            PoolInput p, Instant updateStarted, Instant at, Set<String> updating) {
        return rollout(p, updateStarted, at, updating, false);
    }

    /**
     * @param fresh the update has not started: every node waits for its turn (what its agents
     *     measured counts as earlier rollouts)
     */
    private static PoolRollout rollout(
            PoolInput p, Instant updateStarted, Instant at, Set<String> updating, boolean fresh) {
        Map<String, NodeFacts> facts = new HashMap<>();
        p.facts().nodes().forEach(f -> facts.put(f.name(), f));
        String target = NodeAssessor.poolConfiguration(p.pool());
        boolean paused =
                p.pool().getSpec() != null && Boolean.TRUE.equals(p.pool().getSpec().getPaused());
        List<PoolRollout.Node> model = new ArrayList<>();
        List<Duration> thisRollout = new ArrayList<>(), earlier = new ArrayList<>();
        List<Node> waiting = new ArrayList<>();
        for (Node node : p.nodes()) {
            String name = node.getMetadata().getName();
            NodeFacts f = facts.get(name);
            Map<String, String> a = NodeAssessor.annotations(node);
            Instant started = Times.parse(a.get(UPDATE_STARTED_AT));
            Instant done = Times.parse(a.get(UPDATE_DONE_AT));
            boolean inProgress = started != null && (done == null || started.isAfter(done));
            boolean onTarget =
                    !target.isEmpty()
                            && target.equals(a.get(CURRENT_CONFIG))
                            && DONE.equals(a.get(STATE));
            boolean told = !target.isEmpty() && target.equals(a.get(DESIRED_CONFIG)) && !onTarget;
            boolean updatedSinceStart =
                    (f != null && f.isUpdated())
                            || updateStarted == null
                            || (done != null && !done.isBefore(updateStarted));
            boolean isDone = onTarget && updatedSinceStart && !fresh;
            if (!inProgress && started != null && done != null && !done.isBefore(started)) {
                (isDone ? thisRollout : earlier).add(Duration.between(started, done));
            }
            if (isDone) {
                model.add(
                        new PoolRollout.Node(
                                name,
                                PoolRollout.State.DONE,
                                null,
                                done != null
                                                && (updateStarted == null
                                                        || !done.isBefore(updateStarted))
                                        ? done
                                        : null));
            } else if (paused || (f != null && f.isDegraded())) {
                model.add(new PoolRollout.Node(name, PoolRollout.State.BLOCKED, null, null));
            } else if (told && !fresh) {
                model.add(
                        new PoolRollout.Node(
                                name,
                                PoolRollout.State.RUNNING,
                                inProgress ? started : null,
                                null));
                updating.add(name);
            } else {
                waiting.add(node);
            }
        }
        waiting.sort(
                Comparator.comparing((Node n) -> zone(n).isEmpty())
                        .thenComparing(RolloutEstimates::zone)
                        .thenComparing(
                                n ->
                                        n.getMetadata().getCreationTimestamp() == null
                                                ? ""
                                                : n.getMetadata().getCreationTimestamp())
                        .thenComparing(n -> n.getMetadata().getName()));
        waiting.forEach(
                n ->
                        model.add(
                                new PoolRollout.Node(
                                        n.getMetadata().getName(),
                                        PoolRollout.State.PENDING,
                                        null,
                                        null)));
        return new PoolRollout(
                model,
                lanes(p.pool(), p.nodes().size()),
                NodeTime.of(thisRollout, earlier),
                at,
                RolloutPacing.of(p.pool().getMetadata().getAnnotations()));
    }

    private static String zone(Node n) {
        Map<String, String> labels = n.getMetadata().getLabels();
        return labels == null ? "" : labels.getOrDefault(PoolMembers.ZONE_LABEL, "");
    }

    /** The pool's maxUnavailable as the pool controller resolves it; 1 when it cannot be read. */
    private static int lanes(MachineConfigPool pool, int nodes) {
        IntOrString max = pool.getSpec() == null ? null : pool.getSpec().getMaxUnavailable();
        try {
            return MaxUnavailable.resolve(
                    max == null
                            ? null
                            : max.getIntVal() != null ? max.getIntVal() : max.getStrVal(),
                    nodes);
        } catch (IllegalArgumentException e) {
            return 1;
        }
    }
}
