package io.upshift.graph.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An update graph as the graph service serves it: nodes, edges as pairs of node indices, and
 * conditional edges by version. Validated on construction: versions unique and non-empty, indices
 * in range, no cycle.
 */
public record Graph(
        List<GraphNode> nodes, List<int[]> edges, List<ConditionalEdges> conditionalEdges) {

    public Graph {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
        conditionalEdges = List.copyOf(conditionalEdges);
    }

    /** Builds and validates; the message names the offending version or edge. */
    public static Graph of(
            List<GraphNode> nodes, List<int[]> edges, List<ConditionalEdges> conditional)
            throws GraphException {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            String v = nodes.get(i).version();
            if (v == null || v.isEmpty())
                throw new GraphException("invalid_graph", "node " + i + " has no version");
            if (index.put(v, i) != null)
                throw new GraphException("invalid_graph", "version " + v + " appears twice");
        }
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) out.add(new ArrayList<>());
        for (int[] e : edges) {
            if (e.length != 2
                    || e[0] < 0
                    || e[1] < 0
                    || e[0] >= nodes.size()
                    || e[1] >= nodes.size()) {
                throw new GraphException(
                        "invalid_graph",
                        "edge "
                                + Arrays.toString(e)
                                + " points outside the "
                                + nodes.size()
                                + " nodes");
            }
            out.get(e[0]).add(e[1]);
        }
        String cycle = findCycle(nodes, out);
        if (cycle != null)
            throw new GraphException("invalid_graph", "the graph has a cycle through " + cycle);
        return new Graph(nodes, edges, conditional);
    }

    /** Index of each version. */
    public Map<String, Integer> indexByVersion() {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) index.put(nodes.get(i).version(), i);
        return index;
    }

    private static String findCycle(List<GraphNode> nodes, List<List<Integer>> out) {
        int[] state = new int[nodes.size()]; // 0 new, 1 on the stack, 2 done
        for (int start = 0; start < nodes.size(); start++) {
            if (state[start] != 0) continue;
            // iterative depth-first search: graphs reach thousands of nodes
            ArrayDeque<int[]> stack = new ArrayDeque<>();
            stack.push(new int[] {start, 0});
            state[start] = 1;
            while (!stack.isEmpty()) {
                int[] top = stack.peek();
                List<Integer> next = out.get(top[0]);
                if (top[1] < next.size()) {
                    int n = next.get(top[1]++);
                    if (state[n] == 1) return nodes.get(n).version();
                    if (state[n] == 0) {
                        state[n] = 1;
                        stack.push(new int[] {n, 0});
                    }
                } else {
                    state[top[0]] = 2;
                    stack.pop();
                }
            }
        }
        return null;
    }
}
