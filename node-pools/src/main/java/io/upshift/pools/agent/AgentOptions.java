package io.upshift.pools.agent;

import java.time.Duration;

/**
 * @param drainTimeout how long evictions may be refused before the node is Degraded (the reference:
 *     1 hour)
 * @param drainRetry the wait between eviction rounds (the reference: 1 minute)
 * @param drainSlowRetry the wait once evictions have failed for 10 minutes (the reference: 5
 *     minutes)
 * @param degradedRetry how long a Degraded node waits before trying its config again
 * @param poll how often the agent looks at its node when no event came
 */
public record AgentOptions(
        Duration drainTimeout,
        Duration drainRetry,
        Duration drainSlowRetry,
        Duration degradedRetry,
        Duration poll) {

    public static AgentOptions defaults() {
        return new AgentOptions(
                Duration.ofHours(1),
                Duration.ofMinutes(1),
                Duration.ofMinutes(5),
                Duration.ofMinutes(5),
                Duration.ofSeconds(10));
    }
}
