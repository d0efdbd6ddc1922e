package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.Node;
import io.upshift.base.gofmt.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * How long one node of a pool takes to update, as its agents measured it: the mean, over the pool's
 * nodes, of the last update each timed ({@code upshift.io/update-started-at} to {@code
 * upshift.io/update-done-at}). What the pool controller expects of the next node (will it finish
 * before the maintenance window closes?); {@code upshift status} estimates from the same
 * annotations.
 *
 * @param mean null when no node of the pool was timed
 * @param measured how many nodes the mean is of
 */
public record NodeUpdateTime(Duration mean, int measured) {

    public static NodeUpdateTime of(List<Node> nodes) {
        long millis = 0;
        int n = 0;
        for (Node node : nodes) {
            Map<String, String> a = node.getMetadata().getAnnotations();
            if (a == null) continue;
            Instant started = instant(a.get(NodeAnnotations.UPDATE_STARTED_AT));
            Instant done = instant(a.get(NodeAnnotations.UPDATE_DONE_AT));
            if (started == null || done == null || done.isBefore(started)) continue;
            millis += Duration.between(started, done).toMillis();
            n++;
        }
        return new NodeUpdateTime(n == 0 ? null : Duration.ofMillis(millis / n), n);
    }

    /** "about 4m12s, the mean of 3 nodes' last updates" */
    public String describe() {
        return "about "
                + GoDuration.format(Duration.ofSeconds(Math.max(1, mean.toSeconds())).toNanos())
                + ", the mean of "
                + (measured == 1 ? "1 node's last update" : measured + " nodes' last updates");
    }

    private static Instant instant(String text) {
        if (text == null || text.isEmpty()) return null;
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
