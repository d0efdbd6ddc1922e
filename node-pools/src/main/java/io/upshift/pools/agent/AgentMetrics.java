package io.upshift.pools.agent;

import io.fabric8.kubernetes.api.model.Node;
import io.upshift.pools.metrics.DaemonReadings;
import io.upshift.pools.model.NodeAnnotations;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The node agent's metrics ({@link io.upshift.pools.metrics.DaemonFamilies}): the update steps tell
 * it what happened, and a scrape adds the node's state as the agent's cache holds it then.
 */
public final class AgentMetrics {
    private final Clock clock;
    private final AtomicReference<DaemonReadings> readings =
            new AtomicReference<>(DaemonReadings.NONE);
    private volatile Supplier<Node> node = () -> null;

    public AgentMetrics(Clock clock) {
        this.clock = clock;
    }

    /** Where a scrape reads the node from (the agent's cache). */
    void watch(Supplier<Node> node) {
        this.node = node;
    }

    /** The exposition text, as of now. */
    public String scrape() {
        Node n = node.get();
        if (n != null) {
            Map<String, String> a =
                    n.getMetadata().getAnnotations() == null
                            ? Map.of()
                            : n.getMetadata().getAnnotations();
            String state = a.getOrDefault(NodeAnnotations.STATE, "");
            if (!state.isEmpty())
                update(r -> r.seen(state, a.get(NodeAnnotations.REASON), clock.instant()));
        }
        return readings.get().render(clock.instant());
    }

    void updateEnded(String config, String error) {
        update(r -> r.updateEnded(config, error, clock.instant()));
    }

    void drainRefused(String budget) {
        update(r -> r.drainRefused(budget, clock.instant()));
    }

    void drainEnded(boolean drained) {
        update(r -> r.drainEnded(drained));
    }

    void rebootFailed() {
        update(DaemonReadings::rebootFailed);
    }

    void pivotFailed() {
        update(DaemonReadings::pivotFailed);
    }

    private void update(UnaryOperator<DaemonReadings> change) {
        readings.updateAndGet(change);
    }
}
