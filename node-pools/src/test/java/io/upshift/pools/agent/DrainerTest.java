package io.upshift.pools.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.pools.model.DrainRules;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.Kubelets;
import io.upshift.testkit.RequestLog;
import io.upshift.testkit.ServiceAccount;
import io.upshift.testkit.WithStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    private ApiServer server;
    private Kubelets kubelets;
    private KubernetesClient agent;
    private final List<String> refusals = new ArrayList<>();

    @BeforeEach
    void start() {
        // evictions honouring budgets need the budgets' status: the controller-manager's
        server = ApiServers.with().controllers().open().installRbac();
        if (server instanceof EmbeddedApiServer embedded)
            embedded.dispatcher().evictionGrace(Duration.ofSeconds(1));
        kubelets = Kubelets.of(server); // evicted pods end after their grace period (1 s here)
        server.client()
                .namespaces()
                .resource(
                        new NamespaceBuilder()
                                .withNewMetadata()
                                .withName("shop")
                                .endMetadata()
                                .build())
                .create();
        agent = NodeAgent.client(server.config("agent", ServiceAccount.MACHINE_CONFIG_DAEMON));
    }

    @AfterEach
    void stop() {
        if (agent != null) agent.close();
        if (kubelets != null) kubelets.close();
        if (server != null) server.close();
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
        return WithStatus.create(
                server.client(),
                new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace("shop")
                        .addToLabels("app", app)
                        .withFinalizers(finalizers)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("n1")
                        .withTerminationGracePeriodSeconds(1L)
                        .addNewContainer()
                        .withName("c")
                        .withImage("i")
                        .endContainer()
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .endCondition()
                        .endStatus()
                        .build());
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
        // the finalizer holds the pod: the drain looks at it by name again and again, and waits
        await("the held pod looked at three times")
                .atMost(Duration.ofMinutes(2))
                .until(() -> requests("GET", "namespaces/shop/pods/held").size() >= 3);
        assertThat(drain).isNotDone();
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

        // the drain's own timeout (4 s) is what ends it here: refused until then
        long start = System.nanoTime();
        Drainer.Result result = drainer(Duration.ofSeconds(4), Duration.ofMillis(50)).drain("n1");
        long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();

        assertThat(result.drained()).isFalse();
        assertThat(result.refused()).containsExactly("shop/only");
        assertThat(refusals).containsExactly("shop/only by shop/web");
        // tried again, and at most once a second however long the drain took (a busy machine
        // only makes the tries fewer)
        assertThat(requests("POST", "pods/only" + EVICTIONS))
                .as("%d s of refusals", seconds)
                .hasSizeBetween(2, (int) seconds + 2);
    }

    @Test
    void afterTheTimeoutAPoolThatSaysForceDeletesThePodsItsBudgetHoldsAndSkipsWhatItSkips()
            throws Exception {
        pod("only", "web");
        pod("cache", "cache");
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

        Drainer.Result result =
                drainer(Duration.ofSeconds(2), Duration.ofMillis(50))
                        .drain(
                                "n1",
                                DrainRules.of(
                                        Map.of(
                                                DrainRules.AFTER_TIMEOUT, "Force",
                                                DrainRules.SKIP, "app=cache")));

        assertThat(result.drained()).isTrue();
        assertThat(result.forced()).containsExactly("shop/only");
        assertThat(server.client().pods().inNamespace("shop").withName("only").get()).isNull();
        assertThat(requests("DELETE", "namespaces/shop/pods/only")).hasSize(1);
        assertThat(server.client().pods().inNamespace("shop").withName("cache").get()).isNotNull();
        assertThat(requests("POST", "pods/cache" + EVICTIONS)).isEmpty();
    }
}
