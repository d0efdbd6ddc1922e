package io.upshift.core.taskgraph;

import io.upshift.core.payload.Manifest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The order in which a payload's manifests are applied: a directed acyclic graph of nodes, each a list of tasks run
 * in order; a node may start once every node before it ({@link Node#in()}) succeeded. Independent of any executor.
 *
 * <p>Built as the reference builds it: every batch/v1 Job becomes its own node with everything before it ahead of
 * it and everything after it behind it; each stretch between Jobs is broken by run-level and component
 * ({@link RunLevels}). Where many nodes would each have to precede many others, an empty spacer node joins them
 * instead of M x N edges.
 */
public final class TaskGraph {

    /** Reconciling permutes the same way for this many attempts, shifting the start each time. */
    static final int SHIFT_STRIDE = 8;

    /** One node; a spacer has no tasks. */
    public record Node(int id, List<Task> tasks, List<Integer> in, List<Integer> out) {
        public boolean isSpacer() {
            return tasks.isEmpty();
        }
    }

    private final Mode mode;
    private final List<Node> nodes;
    private final int taskCount;

    private TaskGraph(Mode mode, List<Node> nodes, int taskCount) {
        this.mode = mode;
        this.nodes = nodes;
        this.taskCount = taskCount;
    }

    /**
     * The graph for applying {@code manifests} (in payload order) in {@code mode}; {@code attempt} counts earlier
     * reconcile attempts of this payload and picks the permutation, so a given attempt always orders the same way.
     */
    public static TaskGraph build(List<Manifest> manifests, Mode mode, int attempt) {
        List<Task> tasks = new ArrayList<>(manifests.size());
        for (int i = 0; i < manifests.size(); i++) tasks.add(new Task(i + 1, manifests.get(i)));
        Function<List<Task>, List<List<List<Task>>>> breaker = switch (mode) {
            case UPDATING -> RunLevels::byRunLevel;
            case INITIALIZING -> RunLevels::flattened;
            case RECONCILING -> t -> shifted(permuted(RunLevels.flattened(t), attempt / SHIFT_STRIDE), attempt % SHIFT_STRIDE);
        };
        Builder b = new Builder();
        List<Integer> frontier = List.of();
        List<Task> stretch = new ArrayList<>();
        for (Task t : tasks) {
            if (t.manifest().isJob()) {
                frontier = b.addStretch(stretch, breaker, frontier);
                frontier = b.chain(frontier, b.add(List.of(t)));
                stretch = new ArrayList<>();
            } else {
                stretch.add(t);
            }
        }
        b.addStretch(stretch, breaker, frontier);
        return new TaskGraph(mode, b.freeze(), tasks.size());
    }

    public Mode mode() {
        return mode;
    }

    public List<Node> nodes() {
        return nodes;
    }

    /** Manifests in the graph (the "m" of "n of m done"). */
    public int taskCount() {
        return taskCount;
    }

    /** Nodes nothing precedes. */
    public List<Integer> roots() {
        return nodes.stream().filter(n -> n.in().isEmpty()).map(Node::id).toList();
    }

    private static List<List<List<Task>>> permuted(List<List<List<Task>>> steps, long seed) {
        Random random = new Random(seed);
        for (List<List<Task>> step : steps) Collections.shuffle(step, random);
        return steps;
    }

    private static List<List<List<Task>>> shifted(List<List<List<Task>>> steps, int iteration) {
        for (List<List<Task>> step : steps) {
            int size = step.size();
            if (size == 0) continue;
            int shift = size < SHIFT_STRIDE ? iteration % size : (int) ((long) iteration * size / SHIFT_STRIDE) % size;
            Collections.rotate(step, -shift);
        }
        return steps;
    }

    /** Mutable while building; frozen into immutable nodes. */
    private static final class Builder {
        private final List<List<Task>> tasks = new ArrayList<>();
        private final List<List<Integer>> in = new ArrayList<>();
        private final List<List<Integer>> out = new ArrayList<>();

        int add(List<Task> nodeTasks) {
            tasks.add(List.copyOf(nodeTasks));
            in.add(new ArrayList<>());
            out.add(new ArrayList<>());
            return tasks.size() - 1;
        }

        void edge(int from, int to) {
            out.get(from).add(to);
            in.get(to).add(from);
        }

        /** Makes {@code node} follow every node of {@code frontier}; returns the new frontier. */
        List<Integer> chain(List<Integer> frontier, int node) {
            for (int f : frontier) edge(f, node);
            return List.of(node);
        }

        /** Adds a stretch of tasks after {@code frontier}, broken into parallel steps; returns its last nodes. */
        List<Integer> addStretch(List<Task> stretch, Function<List<Task>, List<List<List<Task>>>> breaker, List<Integer> frontier) {
            if (stretch.isEmpty()) return frontier;
            for (List<List<Task>> step : breaker.apply(stretch)) {
                if (step.isEmpty()) continue;
                if (frontier.size() > 1 && step.size() > 1) frontier = chain(frontier, add(List.of()));
                List<Integer> next = new ArrayList<>(step.size());
                for (List<Task> group : step) {
                    int node = add(group);
                    for (int f : frontier) edge(f, node);
                    next.add(node);
                }
                frontier = next;
            }
            return frontier;
        }

        List<Node> freeze() {
            List<Node> nodes = new ArrayList<>(tasks.size());
            for (int i = 0; i < tasks.size(); i++) {
                nodes.add(new Node(i, tasks.get(i), List.copyOf(in.get(i)), List.copyOf(out.get(i))));
            }
            return Collections.unmodifiableList(nodes);
        }
    }
}
