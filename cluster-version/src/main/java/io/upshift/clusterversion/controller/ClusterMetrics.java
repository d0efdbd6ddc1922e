package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.upshift.clusterversion.metrics.ClusterVersionSamples;
import io.upshift.clusterversion.metrics.ConditionTransitions;
import io.upshift.clusterversion.metrics.ControllerFacts;
import io.upshift.clusterversion.metrics.EstimateSample;
import io.upshift.clusterversion.metrics.Gauges;
import io.upshift.clusterversion.metrics.InstallerSample;
import io.upshift.clusterversion.metrics.OperatorSamples;
import io.upshift.clusterversion.metrics.Sample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The cluster-version operator's metrics, with upstream's names, labels and values ({@link
 * Gauges}), in a Micrometer Prometheus registry: at each scrape every gauge's rows are computed
 * again from the caches and from what the controller of this process knows, so a scrape shows the
 * cluster as the caches hold it then, and nothing of objects gone.
 */
public final class ClusterMetrics implements AutoCloseable {

    /** What the rows are computed from. */
    interface Source {
        /** The ClusterVersion {@code version}; null when there is none. */
        ClusterVersion clusterVersion();

        List<ClusterOperator> operators();

        /** Condition transitions counted so far, by operator and type. */
        Map<ConditionTransitions.Key, Integer> transitions();

        /**
         * The data of ConfigMap {@code openshift-config/openshift-install}; null when it does not
         * exist.
         */
        Map<String, String> installer();

        /**
         * The data of ConfigMap {@code openshift-config/openshift-install-manifests}; null when it
         * does not exist.
         */
        Map<String, String> manifests();
    }

    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final SampleGauges gauges = new SampleGauges(registry, Gauges.ALL);
    private final Source source;
    private final Supplier<ControllerFacts> facts;
    private final AutoCloseable onClose;

    ClusterMetrics(Source source, Supplier<ControllerFacts> facts, AutoCloseable onClose) {
        this.source = source;
        this.facts = facts;
        this.onClose = onClose;
    }

    /**
     * Metrics of the cluster {@code client} reads, from informers of their own (started here,
     * returning once their caches are filled), and of the controller {@code facts} describes.
     */
    public static ClusterMetrics watch(KubernetesClient client, Supplier<ControllerFacts> facts) {
        MetricsCaches caches = new MetricsCaches(client);
        caches.start();
        return new ClusterMetrics(caches, facts, caches);
    }

    /** The exposition text, as of now. */
    public synchronized String scrape() {
        gauges.set(samples());
        return registry.scrape();
    }

    private List<Sample> samples() {
        List<Sample> out =
                new ArrayList<>(ClusterVersionSamples.of(source.clusterVersion(), facts.get()));
        out.addAll(OperatorSamples.of(source.operators(), source.transitions()));
        out.add(InstallerSample.of(source.installer(), source.manifests()));
        EstimateSample.of(source.clusterVersion(), Instant.now()).ifPresent(out::add);
        return out;
    }

    @Override
    public void close() {
        registry.close();
        try {
            onClose.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
