package io.upshift.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class SimulatedClusterTest {

    private static final String NS = "openshift-cluster-version";
    private static final String NAME = "cluster-version-operator";

    @Test
    void theControllersPodIsReplacedAtOnceAndItsDeploymentRollsOutOnceTheNewPodIsReady()
            throws Exception {
        List<String> replaced = new CopyOnWriteArrayList<>();
        AtomicBoolean ready = new AtomicBoolean(true);
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient client = server.client();
                SimulatedCluster cluster =
                        new SimulatedCluster(
                                        server.client(),
                                        Duration.ofMillis(10),
                                        1,
                                        Clock.systemUTC(),
                                        d -> replaced.add(version(d)))
                                .selfReadyWhen(d -> ready.get())
                                .start()) {
            client.apps().deployments().inNamespace(NS).resource(deployment("4.1.0")).create();
            await(() -> rolledOut(client, 1));
            assertThat(replaced).as("the install's pod is the controller running").isEmpty();

            ready.set(false);
            client.apps()
                    .deployments()
                    .inNamespace(NS)
                    .withName(NAME)
                    .edit(d -> deployment("4.1.1"));
            await(() -> replaced.contains("4.1.1"));
            // its delay (10 ms) passed many times over: only the pod's readiness holds it now
            TimeUnit.MILLISECONDS.sleep(500);
            assertThat(rolledOut(client, 2)).as("rolled out before its new pod is ready").isFalse();

            ready.set(true);
            await(() -> rolledOut(client, 2));
            assertThat(replaced).containsExactly("4.1.1");
        }
    }

    private static Deployment deployment(String version) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(NAME)
                .addToAnnotations(SimulatedCluster.VERSION_ANNOTATION, version)
                .endMetadata()
                .withNewSpec()
                .withReplicas(1)
                .withNewTemplate()
                .withNewSpec()
                .addNewContainer()
                .withName("controller")
                .withImage("example.com/release:" + version)
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private static String version(Deployment d) {
        return d.getMetadata().getAnnotations().get(SimulatedCluster.VERSION_ANNOTATION);
    }

    /** The Deployment's status says it rolled out generation {@code generation}. */
    private static boolean rolledOut(KubernetesClient client, long generation) {
        Deployment d = client.apps().deployments().inNamespace(NS).withName(NAME).get();
        return d != null
                && d.getStatus() != null
                && d.getStatus().getObservedGeneration() != null
                && d.getStatus().getObservedGeneration() >= generation
                && Integer.valueOf(1).equals(d.getStatus().getAvailableReplicas());
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waited 30 s").isNegative();
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
