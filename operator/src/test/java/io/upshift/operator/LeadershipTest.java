package io.upshift.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class LeadershipTest {
    KubernetesClient client;

    @Test
    void onlyOneOfTwoReplicasLeadsAndTheLeaseNamesIt() throws Exception {
        AtomicInteger leading = new AtomicInteger();
        try (Leadership a = new Leadership(client, "upshift", "upshift-operator", "replica-a", leading::incrementAndGet, () -> { });
             Leadership b = new Leadership(client, "upshift", "upshift-operator", "replica-b", leading::incrementAndGet, () -> { })) {
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (leading.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            // Give the other replica several retry periods to (wrongly) take over.
            Thread.sleep(5000);
            assertThat(leading.get()).isEqualTo(1);
            Lease lease = client.leases().inNamespace("upshift").withName("upshift-operator").get();
            assertThat(lease.getSpec().getHolderIdentity()).isIn("replica-a", "replica-b");
        }
    }
}
