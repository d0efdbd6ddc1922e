package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.clusterversion.metrics.ControllerFacts;
import io.upshift.runtime.health.Startup;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * {@link ClusterMetrics} whose caches fill on a thread of their own: the operator's start does not
 * wait for them (no controller needs them), it contends for the Lease meanwhile. A scrape before
 * they are filled, or after they could not be, fails with why (the metrics server answers 503 with
 * it).
 */
public final class FillingMetrics implements AutoCloseable {
    private final CompletableFuture<ClusterMetrics> filled = new CompletableFuture<>();

    private FillingMetrics() {}

    /** Starts filling the caches of the metrics of the cluster {@code client} reads. */
    public static FillingMetrics start(KubernetesClient client, Supplier<ControllerFacts> facts) {
        FillingMetrics m = new FillingMetrics();
        Thread t =
                new Thread(
                        () -> {
                            try {
                                m.filled.complete(ClusterMetrics.watch(client, facts));
                                Startup.mark("metrics caches filled");
                            } catch (RuntimeException e) {
                                LoggerFactory.getLogger(FillingMetrics.class)
                                        .error(
                                                "metrics: cannot fill their caches: {}",
                                                e.toString());
                                m.filled.completeExceptionally(e);
                            }
                        },
                        "metrics-caches");
        t.setDaemon(true);
        t.start();
        return m;
    }

    /** The exposition text, as of now. */
    public String scrape() {
        ClusterMetrics m;
        try {
            m = filled.getNow(null);
        } catch (RuntimeException e) {
            Throwable why = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("their caches could not be filled: " + why, why);
        }
        if (m == null) throw new IllegalStateException("their caches are still filling");
        return m.scrape();
    }

    /** Stops the caches once they are filled (at once, when they are). */
    @Override
    public void close() {
        var unused = filled.thenAccept(ClusterMetrics::close);
    }
}
