package io.upshift.pools.controller;

import java.time.Duration;

/**
 * @param releaseVersion the release this controller belongs to: it marks the configs it renders and
 *     the version the machine-config ClusterOperator reports
 * @param nodeName the node this controller runs on (deferred to last in its pool); "" when unknown
 * @param renderGrace how long an unused rendered config is kept
 * @param minInterval the shortest time between two passes
 * @param resync a pass at least this often, for maintenance windows that open with no event
 * @param namespace where the release's machine-config templates and OS image ConfigMaps are
 */
public record PoolControllerOptions(
        String releaseVersion,
        String nodeName,
        Duration renderGrace,
        Duration minInterval,
        Duration resync,
        String namespace) {
    public static final String NAMESPACE = "openshift-machine-config-operator";

    public PoolControllerOptions(
            String releaseVersion,
            String nodeName,
            Duration renderGrace,
            Duration minInterval,
            Duration resync) {
        this(releaseVersion, nodeName, renderGrace, minInterval, resync, NAMESPACE);
    }

    public static PoolControllerOptions defaults(String releaseVersion) {
        return new PoolControllerOptions(
                releaseVersion,
                "",
                Duration.ofMinutes(10),
                Duration.ofMillis(50),
                Duration.ofSeconds(30));
    }

    public PoolControllerOptions withNodeName(String name) {
        return new PoolControllerOptions(
                releaseVersion, name, renderGrace, minInterval, resync, namespace);
    }

    public PoolControllerOptions withNamespace(String ns) {
        return new PoolControllerOptions(
                releaseVersion, nodeName, renderGrace, minInterval, resync, ns);
    }
}
