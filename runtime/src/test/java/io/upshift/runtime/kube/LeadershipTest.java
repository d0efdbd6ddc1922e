package io.upshift.runtime.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Leader election on a Lease, on an API server ({@link ApiServers}: the real one when there). */
@Tag("e2e")
class LeadershipTest {
    final ApiServer server = ApiServers.start().installRbac(); // the namespace upshift
    final KubernetesClient client = server.client();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void onlyOneOfTwoReplicasLeadsAndTheLeaseNamesIt() throws Exception {
        AtomicBoolean aLeads = new AtomicBoolean();
        AtomicBoolean bLeads = new AtomicBoolean();
        // a lease of 15 s renewed every second: a busy machine does not lose it by accident
        Leadership.Timings timings =
                new Leadership.Timings(
                        Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(1));
        try (KubernetesClient aClient = server.client("replica-a");
                KubernetesClient bClient = server.client("replica-b");
                Leadership a =
                        new Leadership(
                                aClient,
                                "openshift-cluster-version",
                                "upshift-operator",
                                "replica-a",
                                timings,
                                () -> aLeads.set(true),
                                () -> {});
                Leadership b =
                        new Leadership(
                                bClient,
                                "openshift-cluster-version",
                                "upshift-operator",
                                "replica-b",
                                timings,
                                () -> bLeads.set(true),
                                () -> {})) {
            await("a leader")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> aLeads.get() || bLeads.get());
            String follower = aLeads.get() ? "replica-b" : "replica-a";
            // the other replica tries to take the lease over five times (a retry period each)
            // and is refused each time
            int tried = leaseRequests(follower);
            await("the other replica trying five times")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> leaseRequests(follower) >= tried + 5);
            assertThat(aLeads.get() && bLeads.get()).as("both led").isFalse();
            Lease lease =
                    client.leases()
                            .inNamespace("openshift-cluster-version")
                            .withName("upshift-operator")
                            .get();
            assertThat(lease.getSpec().getHolderIdentity())
                    .isEqualTo(aLeads.get() ? "replica-a" : "replica-b");
        }
    }

    /** How many requests about the Lease the replica whose client is {@code agent} sent. */
    private int leaseRequests(String agent) {
        return server.requests().matching(r -> r.userAgent().equals(agent) && r.isLease()).size();
    }

    /** A lease of 6 s, renewed every second: short, and still kept on a busy machine. */
    private static final Leadership.Timings FAST =
            new Leadership.Timings(
                    Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofSeconds(1));

    private ZonedDateTime renewTime() {
        Lease lease =
                client.leases()
                        .inNamespace("openshift-cluster-version")
                        .withName("upshift-operator")
                        .get();
        return lease == null || lease.getSpec().getRenewTime() == null
                ? null
                : lease.getSpec().getRenewTime();
    }

    @Test
    void aLeaderWhoseStartWaitsKeepsRenewingItsLease() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean started = new AtomicBoolean();
        // a controller whose caches cannot fill (a refused or unserved kind) waits in its start
        try (Leadership a =
                new Leadership(
                        client,
                        "openshift-cluster-version",
                        "upshift-operator",
                        "replica-a",
                        FAST,
                        () -> {
                            started.set(true);
                            try {
                                never.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        () -> {})) {
            await("leading").atMost(Duration.ofSeconds(60)).untilTrue(started);
            ZonedDateTime first = renewTime();
            // the lease lasts 6 s: without renewals another replica could take it over while this
            // one writes
            await("renewed while the start waits")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> renewTime().isAfter(first));
            ZonedDateTime second = renewTime();
            await("renewed again")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> renewTime().isAfter(second));
            assertThat(
                            client.leases()
                                    .inNamespace("openshift-cluster-version")
                                    .withName("upshift-operator")
                                    .get()
                                    .getSpec()
                                    .getHolderIdentity())
                    .isEqualTo("replica-a");
        } finally {
            never.countDown();
        }
    }

    @Test
    void aStartThatFailsReleasesTheLeaseAndEndsLeadership() throws Exception {
        AtomicBoolean lost = new AtomicBoolean();
        AtomicBoolean bLeads = new AtomicBoolean();
        String why =
                "caches not filled within 120 s: clusterversions.config.openshift.io: HTTP 403:"
                        + " clusterversions.config.openshift.io is forbidden";
        // a lease of a minute: another replica takes over within seconds only if it is released
        Leadership.Timings minute =
                new Leadership.Timings(
                        Duration.ofSeconds(60), Duration.ofSeconds(2), Duration.ofMillis(300));
        try (Leadership a =
                new Leadership(
                        client,
                        "openshift-cluster-version",
                        "upshift-operator",
                        "replica-a",
                        minute,
                        () -> {
                            throw new IllegalStateException(why);
                        },
                        () -> lost.set(true))) {
            CompletableFuture<Leadership.Ending> ending =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return a.await();
                                } catch (InterruptedException e) {
                                    throw new IllegalStateException(e);
                                }
                            });
            assertThat(ending.get(60, TimeUnit.SECONDS)).isEqualTo(Leadership.Ending.START_FAILED);
            assertThat(a.startFailure()).isEqualTo(why);
            assertThat(lost).as("the controllers told to stop").isTrue();
            try (Leadership b =
                    new Leadership(
                            client,
                            "openshift-cluster-version",
                            "upshift-operator",
                            "replica-b",
                            minute,
                            () -> bLeads.set(true),
                            () -> {})) {
                await("another replica leads").atMost(Duration.ofSeconds(60)).untilTrue(bLeads);
            }
        }
    }
}
