package io.upshift.clusterversion.controller;

import io.upshift.clusterversion.model.TaskError;
import io.upshift.releases.taskgraph.Task;
import io.upshift.releases.taskgraph.TaskGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs a task graph with a bounded number of workers: a node starts when every node before it
 * succeeded, runs its tasks in order and stops at the first error; a failed node blocks what
 * depends on it but not independent branches.
 */
final class GraphRun {

    /** Errors of the pass (one per failed node), tasks done, and nodes never started. */
    record Result(List<TaskError> errors, int done, List<String> notStarted) {
        boolean complete() {
            return errors.isEmpty() && notStarted.isEmpty();
        }
    }

    /**
     * How one node of the graph ended: its id, and its error (null when all its tasks were done).
     */
    private record NodeOutcome(int id, TaskError error) {}

    private GraphRun() {}

    /**
     * {@code apply} returns an error for a task that is not done; {@code progress} receives each
     * task done; {@code nodeStart} sees each node as a worker takes it up, before its first task.
     */
    static Result run(
            TaskGraph graph,
            int workers,
            ExecutorService pool,
            Consumer<TaskGraph.Node> nodeStart,
            Function<Task, Optional<TaskError>> apply,
            Runnable progress)
            throws InterruptedException {
        int n = graph.nodes().size();
        int[] waiting = new int[n];
        boolean[] blocked = new boolean[n];
        for (TaskGraph.Node node : graph.nodes()) waiting[node.id()] = node.in().size();
        ExecutorCompletionService<NodeOutcome> done = new ExecutorCompletionService<>(pool);
        List<Integer> ready = new ArrayList<>(graph.roots());
        List<TaskError> errors = new ArrayList<>();
        AtomicInteger tasksDone = new AtomicInteger();
        boolean[] started = new boolean[n];
        int running = 0;
        List<Future<NodeOutcome>> futures = new ArrayList<>();
        try {
            while (!ready.isEmpty() || running > 0) {
                while (!ready.isEmpty() && running < workers) {
                    int id = ready.remove(0);
                    started[id] = true;
                    running++;
                    futures.add(
                            done.submit(
                                    () -> {
                                        nodeStart.accept(graph.nodes().get(id));
                                        for (Task t : graph.nodes().get(id).tasks()) {
                                            Optional<TaskError> e = apply.apply(t);
                                            if (e.isPresent()) return new NodeOutcome(id, e.get());
                                            tasksDone.incrementAndGet();
                                            progress.run();
                                        }
                                        return new NodeOutcome(id, null);
                                    }));
                }
                NodeOutcome r;
                try {
                    r = done.take().get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException(
                            "task runner failed: " + e.getCause(), e.getCause());
                }
                running--;
                if (r.error() != null) {
                    errors.add(r.error());
                    blockDescendants(graph, r.id(), blocked);
                    continue;
                }
                for (int next : graph.nodes().get(r.id()).out()) {
                    if (--waiting[next] == 0 && !blocked[next]) ready.add(next);
                }
            }
        } finally {
            futures.forEach(f -> f.cancel(true));
        }
        List<String> notStarted = new ArrayList<>();
        for (TaskGraph.Node node : graph.nodes()) {
            if (!started[node.id()] && !node.tasks().isEmpty())
                notStarted.add(node.tasks().get(0).toString());
        }
        return new Result(errors, tasksDone.get(), notStarted);
    }

    private static void blockDescendants(TaskGraph g, int id, boolean[] blocked) {
        for (int next : g.nodes().get(id).out()) {
            if (!blocked[next]) {
                blocked[next] = true;
                blockDescendants(g, next, blocked);
            }
        }
    }
}
