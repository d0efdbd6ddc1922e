package io.upshift.operator.pools;

import java.time.Duration;

/**
 * @param releaseVersion the release this controller belongs to: it marks the configs it renders and the version the
 *                       machine-config ClusterOperator reports
 * @param nodeName       the node this controller runs on (deferred to last in its pool); "" when unknown
 * @param renderGrace    how long an unused rendered config is kept
 * @param minInterval    the shortest time between two passes
 * @param resync         a pass at least this often, for maintenance windows that open with no event
 */
public record PoolControllerOptions(String releaseVersion, String nodeName, Duration renderGrace, Duration minInterval, Duration resync) {

    public static PoolControllerOptions defaults(String releaseVersion) {
        return new PoolControllerOptions(releaseVersion, "", Duration.ofMinutes(10), Duration.ofMillis(50), Duration.ofSeconds(30));
    }

    public PoolControllerOptions withNodeName(String name) {
        return new PoolControllerOptions(releaseVersion, name, renderGrace, minInterval, resync);
    }
}
