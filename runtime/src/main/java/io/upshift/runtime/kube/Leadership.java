package io.upshift.runtime.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs work only while holding a coordination.k8s.io Lease, so that of several replicas exactly one
 * acts. Losing the lease stops the work at once ({@code onLoss}: the caller closes its write fence
 * before anything else); the process is then expected to exit and be restarted (crash-only).
 *
 * <p>The Lease is renewed on fabric8's leader-election loop, which runs the callbacks on its own
 * thread and neither acquires nor renews while one of them runs (its {@code onStartLeading} runs
 * inside the acquiring step): so {@code onLead} runs on a thread of its own and the callback
 * returns at once, and a controller whose start waits on the API server can never stop the
 * renewals. A start that fails (a controller's caches did not fill within their bound) is said in
 * one line, the Lease is released for another replica, and {@link #await} reports {@link
 * Ending#START_FAILED}: the process exits non-zero and its pod restarts, visibly.
 */
public final class Leadership implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

    /** How leadership ended. */
    public enum Ending {
        LOST,
        START_FAILED
    }

    /**
     * How long a lease lasts, how long the leader keeps trying to renew it before giving up, and
     * how often it tries. Upstream's cluster-version operator: 137 s, 107 s and 26 s, so that a
     * leader renews about twice a minute and a new leader takes over within about two minutes of a
     * lost one.
     */
    public record Timings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        public static Timings upstream() {
            return new Timings(
                    Duration.ofSeconds(137), Duration.ofSeconds(107), Duration.ofSeconds(26));
        }
    }

    private final String name;
    private final String identity;
    private final CompletableFuture<?> running;
    private final ExecutorService starter;
    private volatile Future<?> starting;
    private volatile String startFailure;
    private volatile boolean lost;
    private volatile boolean led;

    /**
     * Completes once the controllers were told to stop ({@code onLoss} ran), on whichever thread
     * released the Lease.
     */
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();

    /**
     * @param onLead called on a thread of its own when this process becomes the leader; if it
     *     throws, the Lease is released and {@link #await} returns {@link Ending#START_FAILED}
     * @param onLoss called when leadership is lost or released (on the election's thread: it must
     *     not wait long)
     */
    public Leadership(
            KubernetesClient client,
            String namespace,
            String lease,
            String identity,
            Runnable onLead,
            Runnable onLoss) {
        this(client, namespace, lease, identity, Timings.upstream(), onLead, onLoss);
    }

    public Leadership(
            KubernetesClient client,
            String namespace,
            String lease,
            String identity,
            Timings timings,
            Runnable onLead,
            Runnable onLoss) {
        this.name = "leases.coordination.k8s.io/" + namespace + "/" + lease;
        this.identity = identity;
        this.starter =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "leader-start");
                            t.setDaemon(true);
                            return t;
                        });
        running =
                client.leaderElector()
                        .withConfig(
                                new LeaderElectionConfigBuilder()
                                        .withName(lease)
                                        .withLock(new LeaseLock(namespace, lease, identity))
                                        .withLeaseDuration(timings.leaseDuration())
                                        .withRenewDeadline(timings.renewDeadline())
                                        .withRetryPeriod(timings.retryPeriod())
                                        .withReleaseOnCancel(true)
                                        .withLeaderCallbacks(
                                                new LeaderCallbacks(
                                                        () -> {
                                                            LOG.info(
                                                                    "{}: {} is the leader",
                                                                    name,
                                                                    identity);
                                                            led = true;
                                                            starting =
                                                                    starter.submit(
                                                                            () -> lead(onLead));
                                                        },
                                                        () -> {
                                                            LOG.warn(
                                                                    "{}: {} is no longer the"
                                                                            + " leader",
                                                                    name,
                                                                    identity);
                                                            lost = true;
                                                            Future<?> s = starting;
                                                            if (s != null)
                                                                s.cancel(true); // a start still
                                                            // waiting on caches
                                                            // stops waiting
                                                            try {
                                                                onLoss.run();
                                                            } finally {
                                                                stopped.complete(null);
                                                            }
                                                        },
                                                        leader ->
                                                                LOG.info(
                                                                        "{}: leader is {}",
                                                                        name,
                                                                        leader)))
                                        .build())
                        .build()
                        .start();
    }

    private void lead(Runnable onLead) {
        try {
            onLead.run();
        } catch (RuntimeException e) {
            if (lost || running.isDone())
                return; // lost or released meanwhile: that is what ended the start
            startFailure = e.getMessage() == null ? e.toString() : e.getMessage();
            LOG.error(
                    "{}: {} could not start its controllers: {}; releasing the Lease and exiting",
                    name,
                    identity,
                    startFailure);
            LOG.debug("{}: start failed", name, e);
            close();
        }
    }

    /** Waits until leadership ends (lost, released, or failed to start). */
    public Ending await() throws InterruptedException {
        try {
            running.get();
        } catch (CancellationException e) {
            // released by close(), after a failed start or at shutdown; the release and onLoss may
            // run on the
            // election's thread, after this future is cancelled
            if (led) {
                try {
                    stopped.get(30, TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException x) {
                    LOG.warn("{}: the Lease may not have been released: {}", name, x.toString());
                }
            }
        } catch (ExecutionException e) {
            LOG.error(
                    "{}: leader election failed: {}",
                    name,
                    e.getCause() == null ? e.toString() : e.getCause().toString());
        }
        return startFailure != null ? Ending.START_FAILED : Ending.LOST;
    }

    /** Why the controllers could not start, when they could not; null otherwise. */
    public String startFailure() {
        return startFailure;
    }

    /**
     * What a controller process does with its Lease: hold it until leadership ends. When the
     * process is told to stop, {@code beforeRelease} runs first (the controllers finish and write
     * their last status while still leading), then the Lease is released, so that the next replica
     * need not wait for it to expire.
     */
    public Ending holdUntilLost(Runnable beforeRelease) throws InterruptedException {
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    beforeRelease.run();
                                    close();
                                },
                                "release-lease"));
        return await();
    }

    /** Releases the lease. */
    @Override
    public void close() {
        running.cancel(true); // releases the Lease and calls onLoss
        starter.shutdown();
    }
}
