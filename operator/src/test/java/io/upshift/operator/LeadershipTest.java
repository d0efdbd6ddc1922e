package io.upshift.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
            await("a leader").atMost(Duration.ofSeconds(15)).until(() -> leading.get() > 0);
            // the other replica has several retry periods to (wrongly) take over
            await("one leader only").during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(6)).until(() -> leading.get() == 1);
            Lease lease = client.leases().inNamespace("upshift").withName("upshift-operator").get();
            assertThat(lease.getSpec().getHolderIdentity()).isIn("replica-a", "replica-b");
        }
    }
}
