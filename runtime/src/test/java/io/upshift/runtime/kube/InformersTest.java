package io.upshift.runtime.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.Faults;
import io.upshift.testkit.ServiceAccount;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Caches outlive API errors: an informer keeps trying, as client-go's do, instead of giving up for
 * good. Lists that fail on a faulty network need the embedded server's faults; a refused list is a
 * real 403 ({@link ApiServers}).
 */
@Tag("e2e")
class InformersTest {

    @Test
    void anInformerWhoseListsFailKeepsTryingAndThenFollowsTheCluster() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient client =
                        new KubernetesClientBuilder()
                                .withConfig(
                                        new ConfigBuilder(server.config("informed"))
                                                .withRequestTimeout(1000)
                                                .withRequestRetryBackoffLimit(0)
                                                .build())
                                .build()) { // a lost answer is a failure, and the client itself
            // does not retry
            server.client()
                    .configMaps()
                    .inNamespace("ns")
                    .resource(
                            new ConfigMapBuilder()
                                    .withNewMetadata()
                                    .withName("a")
                                    .endMetadata()
                                    .build())
                    .create();
            Faults faults = Faults.share("informed", 1.0, 3); // every list refused or lost
            server.dispatcher().faults(faults);
            AtomicInteger changes = new AtomicInteger();
            try (Informers informers = new Informers(changes::incrementAndGet)) {
                SharedIndexInformer<ConfigMap> maps =
                        informers.add(client.configMaps().inNamespace("ns").runnableInformer(0));
                CompletableFuture<Void> started = CompletableFuture.runAsync(informers::start);
                await().atMost(Duration.ofSeconds(60)).until(() -> faults.failed.get() >= 2);
                assertThat(started).isNotDone();
                server.dispatcher().faults(null); // the API answers again

                started.get();
                assertThat(maps.getStore().getByKey("ns/a")).isNotNull();
                server.client()
                        .configMaps()
                        .inNamespace("ns")
                        .resource(
                                new ConfigMapBuilder()
                                        .withNewMetadata()
                                        .withName("b")
                                        .endMetadata()
                                        .build())
                        .create();
                await().atMost(Duration.ofSeconds(60))
                        .until(
                                () ->
                                        maps.getStore().getByKey("ns/b") != null
                                                && changes.get() >= 1);
            }
        }
    }

    @Test
    void aRefusedListIsOneLogLineNamingTheResourceNotAStackTracePerRetry() throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        String configMaps = "/api/v1/namespaces/ns/configmaps";
        // the node agent, which deploy/rbac.yaml lets read no ConfigMap
        try (ApiServer server = ApiServers.start().installRbac();
                KubernetesClient agent =
                        server.client("upshift-agent", ServiceAccount.MACHINE_CONFIG_DAEMON);
                Informers informers = new Informers(() -> {})) {
            informers.add(agent.configMaps().inNamespace("ns").runnableInformer(0));
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                // the bound is what is tested: the start gives up once it is reached, naming why
                Assertions.assertThatThrownBy(() -> informers.start(Duration.ofSeconds(10)))
                        .hasMessage(
                                "caches not filled within 10 s: configmaps in namespace ns: HTTP"
                                        + " 403: "
                                        + FORBIDDEN);
            } finally {
                System.setErr(err);
            }
            assertThat(server.requests().matching(r -> r.path().startsWith(configMaps)))
                    .as("listed again with backoff (after 1 s, 2 s, 4 s)")
                    .hasSizeGreaterThanOrEqualTo(2);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        // one line (its thread's name stripped), for the refused lists
        assertThat(
                        log.lines()
                                .filter(l -> l.contains("configmaps"))
                                .map(l -> l.replaceFirst("^\\[[^]]*] ", "")))
                .containsExactly(
                        "WARN io.upshift.runtime.kube.Informers - configmaps in namespace ns:"
                                + " cannot list: HTTP 403: "
                                + FORBIDDEN
                                + "; trying again with backoff");
        assertThat(log).doesNotContain("\tat ");
    }

    static final String FORBIDDEN =
            "configmaps is forbidden: User"
                + " \"system:serviceaccount:openshift-machine-config-operator:machine-config-daemon\""
                + " cannot list resource \"configmaps\" in API group \"\" in the namespace \"ns\"";
}
