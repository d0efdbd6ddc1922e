package io.upshift.releases.taskgraph;

import io.upshift.releases.manifest.Manifest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The order in which a payload's manifests are applied: a directed acyclic graph of nodes, each a
 * list of tasks run in order; a node may start once every node before it ({@link Node#in()})
 * succeeded. Independent of any executor.
 *
 * <p>Built as the reference's sync worker builds it, step for step, so that node numbers, edges and
 * spacers are the ones the cluster-version operator would report for the same payload: one node
 * holding every task; then every batch/v1 Job split into a node of its own, with what comes before
 * it ahead and what comes after it behind ({@link GraphShape#splitOnJobs}); then each node broken
 * into parallel groups by run-level and component ({@link RunLevels}), chained from the node itself
 * (left emptied, as the left anchor), with an empty spacer wherever many groups would each have to
 * precede many others, and an empty right anchor towards what the node led to.
 */
public final class TaskGraph {

    /** Reconciling permutes the same way for this many attempts, shifting the start each time. */
    static final int SHIFT_STRIDE = 8;

    /** One node; a spacer (or an anchor) has no tasks. */
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
     * The graph for applying {@code manifests} (in payload order) in {@code mode}; {@code attempt}
     * counts earlier reconcile attempts of this payload and picks the permutation, so a given
     * attempt always orders the same way.
     */
    public static TaskGraph build(List<Manifest> manifests, Mode mode, int attempt) {
        List<Task> tasks = new ArrayList<>(manifests.size());
        for (int i = 0; i < manifests.size(); i++) tasks.add(new Task(i + 1, manifests.get(i)));
        GraphShape shape = new GraphShape(tasks);
        shape.splitOnJobs();
        shape.parallelize(breaker(mode, attempt));
        return new TaskGraph(mode, shape.freeze(), tasks.size());
    }

    /** How a node's tasks are broken into steps of parallel groups in {@code mode}. */
    private static Function<List<Task>, List<List<List<Task>>>> breaker(Mode mode, int attempt) {
        return switch (mode) {
            case UPDATING -> RunLevels::byRunLevel;
            case INITIALIZING -> RunLevels::flattened;
            case RECONCILING -> {
                // one generator for the whole graph, as upstream: each node's shuffle moves it on
                Random random = new Random(attempt / SHIFT_STRIDE);
                int iteration = attempt % SHIFT_STRIDE;
                yield t -> shifted(permuted(RunLevels.flattened(t), random), iteration);
            }
        };
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

    private static List<List<List<Task>>> permuted(List<List<List<Task>>> steps, Random random) {
        for (List<List<Task>> step : steps) Collections.shuffle(step, random);
        return steps;
    }

    private static List<List<List<Task>>> shifted(List<List<List<Task>>> steps, int iteration) {
        for (List<List<Task>> step : steps) {
            int size = step.size();
            if (size == 0) continue;
            int shift =
                    size < SHIFT_STRIDE
                            ? iteration % size
                            : (int) ((long) iteration * size / SHIFT_STRIDE) % size;
            Collections.rotate(step, -shift);
        }
        return steps;
    }
}
