package io.upshift.runtime.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
@Tag("e2e")
class LeadershipTest {
    KubernetesClient client;

    @Test
    void onlyOneOfTwoReplicasLeadsAndTheLeaseNamesIt() throws Exception {
        AtomicInteger leading = new AtomicInteger();
        try (Leadership a =
                        new Leadership(
                                client,
                                "upshift",
                                "upshift-operator",
                                "replica-a",
                                leading::incrementAndGet,
                                () -> {});
                Leadership b =
                        new Leadership(
                                client,
                                "upshift",
                                "upshift-operator",
                                "replica-b",
                                leading::incrementAndGet,
                                () -> {})) {
            await("a leader").atMost(Duration.ofSeconds(15)).until(() -> leading.get() > 0);
            // the other replica has several retry periods to (wrongly) take over
            await("one leader only")
                    .during(Duration.ofSeconds(5))
                    .atMost(Duration.ofSeconds(6))
                    .until(() -> leading.get() == 1);
            Lease lease = client.leases().inNamespace("upshift").withName("upshift-operator").get();
            assertThat(lease.getSpec().getHolderIdentity()).isIn("replica-a", "replica-b");
        }
    }

    private static final Leadership.Timings FAST =
            new Leadership.Timings(
                    Duration.ofSeconds(2), Duration.ofMillis(1500), Duration.ofMillis(300));

    private ZonedDateTime renewTime() {
        Lease lease = client.leases().inNamespace("upshift").withName("upshift-operator").get();
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
                        "upshift",
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
            await("leading").atMost(Duration.ofSeconds(15)).untilTrue(started);
            ZonedDateTime first = renewTime();
            // the lease lasts 2 s: without renewals another replica could take it over while this
            // one writes
            await("renewed while the start waits")
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> renewTime().isAfter(first));
            ZonedDateTime second = renewTime();
            await("renewed again")
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> renewTime().isAfter(second));
            assertThat(
                            client.leases()
                                    .inNamespace("upshift")
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
                        "upshift",
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
            assertThat(ending.get(15, TimeUnit.SECONDS)).isEqualTo(Leadership.Ending.START_FAILED);
            assertThat(a.startFailure()).isEqualTo(why);
            assertThat(lost).as("the controllers told to stop").isTrue();
            try (Leadership b =
                    new Leadership(
                            client,
                            "upshift",
                            "upshift-operator",
                            "replica-b",
                            minute,
                            () -> bLeads.set(true),
                            () -> {})) {
                await("another replica leads").atMost(Duration.ofSeconds(10)).untilTrue(bLeads);
            }
        }
    }
}
