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
 * the lease stops the work; the process is then expected to exit and be restarted (crash-only).
 */
public final class Leadership implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);
    private final CompletableFuture<?> running;

    /**
     * @param onLead called on a fresh thread when this process becomes the leader
     * @param onLoss called when leadership is lost or released
     */
    public Leadership(KubernetesClient client, String namespace, String lease, String identity, Runnable onLead, Runnable onLoss) {
        running = client.leaderElector().withConfig(new LeaderElectionConfigBuilder()
                .withName(lease)
                .withLock(new LeaseLock(namespace, lease, identity))
                .withLeaseDuration(Duration.ofSeconds(15))
                .withRenewDeadline(Duration.ofSeconds(10))
                .withRetryPeriod(Duration.ofSeconds(2))
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
     * What a controller process does with its Lease: hold it until leadership ends, releasing it when the process is
     * told to stop (so that the next replica need not wait for it to expire).
     */
    public void holdUntilLost() throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "release-lease"));
        await();
    }

    /** Releases the lease. */
    @Override
    public void close() {
        running.cancel(true);
    }
}
