package io.upshift.pools.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.RequestLog;
import io.upshift.testkit.ServiceAccount;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The drain on an API server whose evicted pods terminate for a while, as upstream's drain helper
 * behaves: each pod evicted once, then waited for by name; terminating pods skipped; refusals
 * retried at most once a second.
 */
@Tag("e2e")
class DrainerTest {
    private static final String EVICTIONS = "/eviction";
    private EmbeddedApiServer server;
    private KubernetesClient agent;
    private final List<String> refusals = new ArrayList<>();

    @BeforeEach
    void start() {
        server = new EmbeddedApiServer().installRbac();
        server.dispatcher().evictionGrace(Duration.ofSeconds(1));
        agent = NodeAgent.client(server.config("agent", ServiceAccount.MACHINE_CONFIG_DAEMON));
    }

    @AfterEach
    void stop() {
        agent.close();
        server.close();
    }

    private Drainer drainer(Duration timeout, Duration retry) {
        return new Drainer(
                agent,
                Clock.systemUTC(),
                new AgentOptions(
                        timeout, retry, retry, Duration.ofHours(1), Duration.ofMillis(100)),
                (pod, budget) -> refusals.add(pod + " by " + budget));
    }

    private Pod pod(String name, String app, String... finalizers) {
        return server.client()
                .pods()
                .resource(
                        new PodBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .withNamespace("shop")
                                .addToLabels("app", app)
                                .withFinalizers(finalizers)
                                .endMetadata()
                                .withNewSpec()
                                .withNodeName("n1")
                                .addNewContainer()
                                .withName("c")
                                .withImage("i")
                                .endContainer()
                                .endSpec()
                                .withNewStatus()
                                .withPhase("Running")
                                .endStatus()
                                .build())
                .create();
    }

    private List<RequestLog.Request> requests(String method, String pathPart) {
        return server.requests()
                .matching(
                        r ->
                                r.method().equals(method)
                                        && r.path().contains(pathPart)
                                        && "agent".equals(r.userAgent()));
    }

    @Test
    void aPodAlreadyTerminatingIsLeftAloneAndDoesNotHoldTheDrain() throws Exception {
        pod("stuck", "a", "example.com/hold");
        assertThat(server.client().pods().inNamespace("shop").withName("stuck").evict())
                .isTrue(); // terminating, held by its finalizer
        pod("web", "b");
        server.requests().clear();

        Drainer.Result result = drainer(Duration.ofSeconds(30), Duration.ofMillis(100)).drain("n1");

        assertThat(result.drained()).isTrue();
        assertThat(server.client().pods().inNamespace("shop").withName("web").get()).isNull();
        assertThat(requests("POST", "pods/stuck" + EVICTIONS)).isEmpty();
        assertThat(requests("POST", "pods/web" + EVICTIONS)).hasSize(1);
        assertThat(requests("GET", "/api/v1/pods"))
                .as("node-wide lists: one per round, two rounds")
                .hasSizeLessThanOrEqualTo(2);
    }

    @Test
    void anEvictedPodIsWaitedForByNameOnceASecondUntilItIsGone() throws Exception {
        pod("held", "a", "example.com/hold");
        server.requests().clear();
        Instant start = Instant.now();
        CompletableFuture<Drainer.Result> drain =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return drainer(Duration.ofSeconds(60), Duration.ofMillis(100))
                                        .drain("n1");
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        Thread.sleep(4000);
        assertThat(drain).isNotDone(); // the finalizer holds the pod
        server.client()
                .pods()
                .inNamespace("shop")
                .withName("held")
                .edit(p -> new PodBuilder(p).editMetadata().withFinalizers().endMetadata().build());
        Drainer.Result result = drain.get();
        long seconds = Duration.between(start, Instant.now()).toSeconds();

        assertThat(result.drained()).isTrue();
        assertThat(requests("POST", "pods/held" + EVICTIONS)).as("evicted once").hasSize(1);
        assertThat(requests("GET", "/api/v1/pods"))
                .as("node-wide lists")
                .hasSizeLessThanOrEqualTo(2);
        assertThat(requests("GET", "namespaces/shop/pods/held"))
                .as("looked at once a second")
                .hasSizeGreaterThanOrEqualTo(3)
                .hasSizeLessThanOrEqualTo((int) seconds + 2);
    }

    @Test
    void aRefusedEvictionIsTriedAgainAtMostOnceASecond() throws Exception {
        pod("only", "web");
        server.client()
                .policy()
                .v1()
                .podDisruptionBudget()
                .resource(
                        new PodDisruptionBudgetBuilder()
                                .withNewMetadata()
                                .withName("web")
                                .withNamespace("shop")
                                .endMetadata()
                                .withNewSpec()
                                .withMinAvailable(new IntOrString(1))
                                .withNewSelector()
                                .addToMatchLabels("app", "web")
                                .endSelector()
                                .endSpec()
                                .build())
                .create();
        server.requests().clear();

        Drainer.Result result = drainer(Duration.ofSeconds(4), Duration.ofMillis(50)).drain("n1");

        assertThat(result.drained()).isFalse();
        assertThat(result.refused()).containsExactly("shop/only");
        assertThat(refusals).containsExactly("shop/only by shop/web");
        assertThat(requests("POST", "pods/only" + EVICTIONS))
                .as("4 s of refusals")
                .hasSizeBetween(4, 6);
    }
}
