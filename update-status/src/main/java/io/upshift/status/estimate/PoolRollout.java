package io.upshift.status.estimate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * When a pool's rollout ends: its nodes updated at most {@code lanes} (maxUnavailable) at a time,
 * each taking the measured per-node time. Nodes in progress end that long after they started; the
 * pending ones, in the order the pool controller picks them, each take the first lane to come free.
 * Pure: the caller says what it knows of each node.
 */
public final class PoolRollout {

    /** Where a node stands in the rollout. */
    public enum State {
        /** Runs the target. */
        DONE,
        /** Being updated. */
        RUNNING,
        /** Waiting for its turn. */
        PENDING,
        /** Will not be updated without help (degraded, unavailable, or its pool paused). */
        BLOCKED
    }

    /**
     * One node: its state, when its update started (RUNNING; null when not yet recorded) and when
     * it was done (DONE in this rollout; else null).
     */
    public record Node(String name, State state, Instant startedAt, Instant doneAt) {}

    /**
     * The rollout's predicted end and each remaining node's, or null (with the reason in {@code
     * basis}) when they cannot be predicted.
     */
    public record Plan(Instant end, Map<String, Instant> nodeEnds, String basis) {}

    private final List<Node> nodes;
    private final int lanes;
    private final NodeTime time;
    private final Instant now;
    private final RolloutPacing pacing;

    /**
     * @param nodes the pool's nodes, the pending ones in the order they will be picked
     * @param lanes how many nodes may update at once (the pool's maxUnavailable resolved)
     */
    public PoolRollout(List<Node> nodes, int lanes, NodeTime time, Instant now) {
        this(nodes, lanes, time, now, RolloutPacing.NONE);
    }

    /**
     * @param pacing the pool's window and soak time, which the pending nodes wait for
     */
    public PoolRollout(
            List<Node> nodes, int lanes, NodeTime time, Instant now, RolloutPacing pacing) {
        this.nodes = List.copyOf(nodes);
        this.lanes = Math.max(1, lanes);
        this.time = time;
        this.now = now;
        this.pacing = pacing;
    }

    /** The nodes as given. */
    public List<Node> nodes() {
        return nodes;
    }

    /**
     * Some node of this rollout is updating or done while others wait: the pool controller is at
     * it.
     */
    public boolean started() {
        return count(State.RUNNING) > 0 || (count(State.DONE) > 0 && count(State.PENDING) > 0);
    }

    /** Nothing left to update. */
    public boolean finished() {
        return count(State.DONE) == nodes.size();
    }

    /**
     * The plan of what is left; {@code notStartedBefore} is when a rollout that has not started
     * will start (null: unknown, and so is the end).
     */
    public Plan plan(Instant notStartedBefore) {
        Node blocked =
                nodes.stream().filter(n -> n.state() == State.BLOCKED).findFirst().orElse(null);
        if (blocked != null) {
            return new Plan(
                    null, Map.of(), "node " + blocked.name() + " will not update without help");
        }
        if (finished()) {
            return new Plan(null, Map.of(), "every node updated");
        }
        Duration per = time.perNode();
        if (per == null) {
            return new Plan(null, Map.of(), time.basis());
        }
        Duration step = Overrun.step(per);
        Instant idleFrom;
        if (started()) {
            // lanes free now were freed when the last node finished, as the controller picks at
            // once
            Instant lastDone =
                    nodes.stream()
                            .map(Node::doneAt)
                            .filter(t -> t != null)
                            .max(Instant::compareTo)
                            .orElse(now);
            idleFrom = Overrun.notBefore(lastDone, now, step);
        } else if (notStartedBefore != null) {
            idleFrom = Overrun.notBefore(notStartedBefore, now, step);
        } else {
            return new Plan(null, Map.of(), "waiting for the rollout to start");
        }
        Map<String, Instant> ends = new LinkedHashMap<>();
        PriorityQueue<Instant> free = new PriorityQueue<>();
        // every end so far: a soak follows each
        List<Instant> soaking = new ArrayList<>();
        nodes.stream().map(Node::doneAt).filter(t -> t != null).forEach(soaking::add);
        int running = 0;
        for (Node n : nodes) {
            if (n.state() == State.RUNNING) {
                Instant end = Overrun.end(n.startedAt() == null ? now : n.startedAt(), per, now);
                ends.put(n.name(), end);
                free.add(end);
                soaking.add(end);
                running++;
            }
        }
        for (int i = running; i < lanes; i++) {
            free.add(idleFrom);
        }
        List<Node> pending = new ArrayList<>();
        nodes.stream().filter(n -> n.state() == State.PENDING).forEach(pending::add);
        RolloutPacing.Waits waits = new RolloutPacing.Waits();
        for (Node n : pending) {
            Instant end = pacing.start(free.poll(), per, soaking, waits).plus(per);
            ends.put(n.name(), end);
            free.add(end);
            soaking.add(end);
        }
        Instant end = ends.values().stream().max(Instant::compareTo).orElse(idleFrom);
        int left = running + pending.size();
        String basis =
                (left == 1 ? "1 node" : left + " nodes")
                        + " left, "
                        + lanes
                        + " at a time, "
                        + Seconds.format(per)
                        + " each ("
                        + time.basis()
                        + ")"
                        + waits.describe(pacing);
        return new Plan(end, ends, basis);
    }

    private long count(State s) {
        return nodes.stream().filter(n -> n.state() == s).count();
    }
}
