package io.upshift.releases.taskgraph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * A task graph while it is being shaped: nodes by index, each with its tasks and its edges in and
 * out. The two operations are the reference's, in its order of node creation, so that the finished
 * graph numbers its nodes as the reference does.
 */
final class GraphShape {
    private final List<List<Task>> tasks = new ArrayList<>();
    private final List<List<Integer>> in = new ArrayList<>();
    private final List<List<Integer>> out = new ArrayList<>();

    /** One node holding every task. */
    GraphShape(List<Task> all) {
        add(all, List.of(), List.of());
    }

    private int add(List<Task> nodeTasks, List<Integer> nodeIn, List<Integer> nodeOut) {
        tasks.add(new ArrayList<>(nodeTasks));
        in.add(new ArrayList<>(nodeIn));
        out.add(new ArrayList<>(nodeOut));
        return tasks.size() - 1;
    }

    /**
     * Gives every Job a node of its own: a node [a, job, b] becomes [a] -> [job] -> [b], the Job
     * keeping the node's index, the part before it and the part after it added as new nodes. Nodes
     * added here are split in turn.
     */
    void splitOnJobs() {
        for (int i = 0; i < tasks.size(); i++) {
            List<Task> nodeTasks = tasks.get(i);
            if (nodeTasks.size() <= 1) continue;
            for (int j = 0; j < nodeTasks.size(); j++) {
                if (!nodeTasks.get(j).manifest().isJob()) continue;
                if (j > 0) {
                    int left = add(nodeTasks.subList(0, j), in.get(i), List.of(i));
                    for (int from : in.get(i)) replace(out.get(from), i, left);
                    in.set(i, new ArrayList<>(List.of(left)));
                }
                if (j < nodeTasks.size() - 1) {
                    int right =
                            add(nodeTasks.subList(j + 1, nodeTasks.size()), List.of(i), out.get(i));
                    for (int to : out.get(i)) replace(in.get(to), i, right);
                    out.set(i, new ArrayList<>(List.of(right)));
                }
                tasks.set(i, new ArrayList<>(List.of(nodeTasks.get(j))));
                break;
            }
        }
    }

    /**
     * Breaks each node's tasks into steps of parallel groups ({@code breaker}; no steps, or one
     * step of one group, leaves the node as it is). The node becomes the empty left anchor the
     * steps hang from, step after step; where several groups follow several, an empty spacer joins
     * them; an empty right anchor leads on to what the node led to. Every node is offered to the
     * breaker, those added here too.
     */
    void parallelize(Function<List<Task>, List<List<List<Task>>>> breaker) {
        for (int i = 0; i < tasks.size(); i++) {
            List<List<List<Task>>> steps = breaker.apply(tasks.get(i));
            if (steps.isEmpty() || (steps.size() == 1 && steps.get(0).size() == 1)) continue;
            tasks.set(i, new ArrayList<>());
            List<Integer> leadsTo = out.get(i);
            out.set(i, new ArrayList<>());
            List<Integer> frontier = List.of(i);
            for (List<List<Task>> step : steps) {
                if (step.isEmpty()) continue;
                if (frontier.size() > 1 && step.size() > 1)
                    frontier = addAfter(List.of(List.of()), frontier);
                frontier = addAfter(step, frontier);
            }
            if (leadsTo.isEmpty()) continue;
            int anchor = add(List.of(), List.of(), leadsTo);
            for (int to : leadsTo) replace(in.get(to), i, anchor);
            for (int from : frontier) {
                out.set(from, new ArrayList<>(List.of(anchor)));
                in.get(anchor).add(from);
            }
        }
    }

    /**
     * Adds one node per group, each after every node of {@code frontier}; returns the added nodes.
     */
    private List<Integer> addAfter(List<List<Task>> groups, List<Integer> frontier) {
        List<Integer> added = new ArrayList<>(groups.size());
        for (List<Task> group : groups) added.add(add(group, frontier, List.of()));
        for (int from : frontier) {
            for (int to : added) if (!out.get(from).contains(to)) out.get(from).add(to);
        }
        return added;
    }

    private static void replace(List<Integer> edges, int from, int to) {
        edges.replaceAll(e -> e == from ? to : e);
    }

    List<TaskGraph.Node> freeze() {
        List<TaskGraph.Node> nodes = new ArrayList<>(tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            nodes.add(
                    new TaskGraph.Node(
                            i,
                            List.copyOf(tasks.get(i)),
                            List.copyOf(in.get(i)),
                            List.copyOf(out.get(i))));
        }
        return Collections.unmodifiableList(nodes);
    }
}
