package io.upshift.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs work only while holding a coordination.k8s.io Lease, so that of several replicas exactly one acts. Losing
 * the lease stops the work at once ({@code onLoss}: the caller closes its write fence before anything else); the
 * process is then expected to exit and be restarted (crash-only).
 */
public final class Leadership implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

    /**
     * How long a lease lasts, how long the leader keeps trying to renew it before giving up, and how often it tries.
     * Upstream's cluster-version operator: 137 s, 107 s and 26 s, so that a leader renews about twice a minute and a
     * new leader takes over within about two minutes of a lost one.
     */
    public record Timings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        public static Timings upstream() {
            return new Timings(Duration.ofSeconds(137), Duration.ofSeconds(107), Duration.ofSeconds(26));
        }
    }

    private final CompletableFuture<?> running;

    /**
     * @param onLead called on a fresh thread when this process becomes the leader
     * @param onLoss called when leadership is lost or released
     */
    public Leadership(KubernetesClient client, String namespace, String lease, String identity, Runnable onLead, Runnable onLoss) {
        this(client, namespace, lease, identity, Timings.upstream(), onLead, onLoss);
    }

    public Leadership(KubernetesClient client, String namespace, String lease, String identity, Timings timings, Runnable onLead, Runnable onLoss) {
        running = client.leaderElector().withConfig(new LeaderElectionConfigBuilder()
                .withName(lease)
                .withLock(new LeaseLock(namespace, lease, identity))
                .withLeaseDuration(timings.leaseDuration())
                .withRenewDeadline(timings.renewDeadline())
                .withRetryPeriod(timings.retryPeriod())
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(
                        () -> {
                            LOG.info("leases.coordination.k8s.io/{}/{}: {} is the leader", namespace, lease, identity);
                            onLead.run();
                        },
                        () -> {
                            LOG.warn("leases.coordination.k8s.io/{}/{}: {} is no longer the leader", namespace, lease, identity);
                            onLoss.run();
                        },
                        leader -> LOG.info("leases.coordination.k8s.io/{}/{}: leader is {}", namespace, lease, leader)))
                .build()).build().start();
    }

    /** Waits until leadership ends (lost, released, or failed). */
    public void await() throws Exception {
        running.get();
    }

    /**
     * What a controller process does with its Lease: hold it until leadership ends. When the process is told to stop,
     * {@code beforeRelease} runs first (the controllers finish and write their last status while still leading), then
     * the Lease is released, so that the next replica need not wait for it to expire.
     */
    public void holdUntilLost(Runnable beforeRelease) throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            beforeRelease.run();
            close();
        }, "release-lease"));
        await();
    }

    /** Releases the lease. */
    @Override
    public void close() {
        running.cancel(true);
    }
}
