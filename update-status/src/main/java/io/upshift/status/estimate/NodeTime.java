package io.upshift.status.estimate;

import java.time.Duration;
import java.util.List;

/**
 * How long one node of a pool takes to update, as measured: the mean of the nodes that finished in
 * this rollout, else of what the pool's nodes took in earlier rollouts, else unknown.
 *
 * @param perNode null when nothing was measured
 * @param basis where the figure comes from, in a few words
 */
public record NodeTime(Duration perNode, String basis) {

    public static NodeTime of(List<Duration> thisRollout, List<Duration> earlier) {
        if (!thisRollout.isEmpty()) {
            return new NodeTime(
                    mean(thisRollout),
                    "mean of " + count(thisRollout.size()) + " measured in this rollout");
        }
        if (!earlier.isEmpty()) {
            return new NodeTime(
                    mean(earlier),
                    "mean of " + count(earlier.size()) + " measured in earlier rollouts");
        }
        return new NodeTime(null, "no node update measured yet");
    }

    private static String count(int n) {
        return n == 1 ? "1 node" : n + " nodes";
    }

    private static Duration mean(List<Duration> ds) {
        long total = 0;
        for (Duration d : ds) {
            total += d.toMillis();
        }
        return Duration.ofMillis(total / ds.size());
    }
}
