package io.upshift.bench;

import io.upshift.pools.model.MaxUnavailable;
import io.upshift.pools.model.NodeSelection;
import io.upshift.pools.model.PoolNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A rollout of one pool in simulated time, driven by the node controller's own decisions
 * (NodeSelection, MaxUnavailable): a pass runs whenever a node finishes, every node takes T to
 * update. Prints the total against the critical-path lower bound ceil(N / maxUnavailable) x T.
 * Usage: PoolRolloutSim [nodes] [maxUnavailable] [T seconds].
 */
public final class PoolRolloutSim {
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        String maxSpec = args.length > 1 ? args[1] : "10%";
        long t = args.length > 2 ? Long.parseLong(args[2]) : 600;
        String target = "rendered-worker-new";
        List<PoolNode> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(
                    new PoolNode(
                            "worker-" + i,
                            "old",
                            "old",
                            "Done",
                            "",
                            true,
                            "zone-" + (i % 3),
                            Instant.ofEpochSecond(i),
                            false));
        }
        int max = MaxUnavailable.resolve(maxSpec, n);
        PriorityQueue<long[]> finishing =
                new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0])); // {time, index}
        long now = 0;
        int passes = 0, done = 0, mostUnavailable = 0;
        while (done < n) {
            passes++;
            for (PoolNode p : NodeSelection.pick(nodes, target, max, false)) {
                int i = nodes.indexOf(p);
                nodes.set(
                        i,
                        new PoolNode(
                                p.name(),
                                p.currentConfig(),
                                target,
                                "Working",
                                "",
                                true,
                                p.zone(),
                                p.created(),
                                false));
                finishing.add(new long[] {now + t, i});
            }
            mostUnavailable =
                    Math.max(
                            mostUnavailable,
                            (int) nodes.stream().filter(PoolNode::unavailable).count());
            long[] next = finishing.poll();
            now = next[0];
            do {
                PoolNode p = nodes.get((int) next[1]);
                nodes.set(
                        (int) next[1],
                        new PoolNode(
                                p.name(),
                                target,
                                target,
                                "Done",
                                "",
                                true,
                                p.zone(),
                                p.created(),
                                false));
                done++;
                next =
                        finishing.peek() != null && finishing.peek()[0] == now
                                ? finishing.poll()
                                : null;
            } while (next != null);
        }
        long bound = (long) Math.ceil((double) n / max) * t;
        System.out.printf(
                "%d nodes, maxUnavailable %s (= %d), T = %d s: total %d s, lower bound %d s, ratio"
                        + " %.3f; %d passes, at most %d unavailable%n",
                n, maxSpec, max, t, now, bound, (double) now / bound, passes, mostUnavailable);
    }
}
