package io.upshift.pools.controller;

import io.upshift.graph.client.PromQLTarget;
import java.time.Duration;

/**
 * @param releaseVersion the release this controller belongs to: it marks the configs it renders and
 *     the version the machine-config ClusterOperator reports
 * @param nodeName the node this controller runs on (deferred to last in its pool); "" when unknown
 * @param renderGrace how long an unused rendered config is kept
 * @param minInterval the shortest time between two passes
 * @param resync a pass at least this often, for maintenance windows that open with no event
 * @param namespace where the release's machine-config templates and OS image ConfigMaps are
 * @param promql where the pools' health gates on Prometheus are asked, as the conditional update
 *     risks are (the same flags); null: nowhere, and such a gate holds its pool
 * @param gateInterval how often a health gate query is asked again while a rollout is due
 */
public record PoolControllerOptions(
        String releaseVersion,
        String nodeName,
        Duration renderGrace,
        Duration minInterval,
        Duration resync,
        String namespace,
        PromQLTarget promql,
        Duration gateInterval) {
    public static final String NAMESPACE = "openshift-machine-config-operator";
    public static final Duration GATE_INTERVAL = Duration.ofSeconds(30);

    public PoolControllerOptions(
            String releaseVersion,
            String nodeName,
            Duration renderGrace,
            Duration minInterval,
            Duration resync,
            String namespace) {
        this(
                releaseVersion,
                nodeName,
                renderGrace,
                minInterval,
                resync,
                namespace,
                null,
                GATE_INTERVAL);
    }

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
                releaseVersion,
                name,
                renderGrace,
                minInterval,
                resync,
                namespace,
                promql,
                gateInterval);
    }

    public PoolControllerOptions withNamespace(String ns) {
        return new PoolControllerOptions(
                releaseVersion,
                nodeName,
                renderGrace,
                minInterval,
                resync,
                ns,
                promql,
                gateInterval);
    }

    /** Health gates asked of {@code target} every {@code interval} while a rollout is due. */
    public PoolControllerOptions withPromQL(PromQLTarget target, Duration interval) {
        return new PoolControllerOptions(
                releaseVersion,
                nodeName,
                renderGrace,
                minInterval,
                resync,
                namespace,
                target,
                interval);
    }
}
