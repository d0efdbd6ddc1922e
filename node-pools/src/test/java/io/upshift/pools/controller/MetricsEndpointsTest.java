package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.pools.agent.NodeAgent;
import io.upshift.runtime.metrics.MetricsServer;
import io.upshift.runtime.metrics.ServingCertificate;
import io.upshift.runtime.metrics.TokenAccess;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.ServiceAccount;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's and the pool controller's /metrics, served as the operator's: over HTTPS, to a bearer
 * token the API server authenticates and whose user deploy/rbac.yaml's upshift-metrics-reader is
 * bound to (200, with the drain and reboot metrics); 401 without a token, 403 for a user not bound.
 * The reviews are asked as the agent's and the controller's own ServiceAccounts, with
 * deploy/rbac.yaml's rules (upshift-metrics-auth).
 */
@Tag("e2e")
class MetricsEndpointsTest {
    static final String PROMETHEUS = "system:serviceaccount:monitoring:prometheus";

    @TempDir Path hosts;

    @Test
    void agentAndControllerMetricsNeedATokenAllowedToGetMetrics() throws Exception {
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            EmbeddedApiServer api = h.embedded();
            api.dispatcher()
                    .accessReviews()
                    .token("prometheus-token", PROMETHEUS)
                    .token("alice-token", "alice");
            h.client
                    .rbac()
                    .clusterRoleBindings()
                    .resource(
                            new ClusterRoleBindingBuilder()
                                    .withNewMetadata()
                                    .withName("upshift-metrics-reader")
                                    .endMetadata()
                                    .withNewRoleRef()
                                    .withApiGroup("rbac.authorization.k8s.io")
                                    .withKind("ClusterRole")
                                    .withName("upshift-metrics-reader")
                                    .endRoleRef()
                                    .addNewSubject()
                                    .withKind("ServiceAccount")
                                    .withName("prometheus")
                                    .withNamespace("monitoring")
                                    .endSubject()
                                    .build())
                    .create();
            h.settledPoolOfOne("worker", "w0", "base", "os@1", "4.19.0");
            NodeAgent agent = h.agents.get("w0");
            ServingCertificate cert =
                    ServingCertificate.selfSigned(List.of("127.0.0.1"), Instant.now());
            InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
            try (KubernetesClient agentReviews =
                            api.client(
                                    "upshift-agent-metrics", ServiceAccount.MACHINE_CONFIG_DAEMON);
                    KubernetesClient controllerReviews =
                            api.client(
                                    "upshift-pools-metrics",
                                    ServiceAccount.MACHINE_CONFIG_OPERATOR);
                    MetricsServer agentMetrics =
                            MetricsServer.start(
                                    any,
                                    agent.metrics()::scrape,
                                    new TokenAccess(agentReviews, Clock.systemUTC()),
                                    cert);
                    MetricsServer controllerMetrics =
                            MetricsServer.start(
                                    any,
                                    h.controller::scrape,
                                    new TokenAccess(controllerReviews, Clock.systemUTC()),
                                    cert)) {
                HttpClient http = pinned(cert);
                for (MetricsServer s : List.of(agentMetrics, controllerMetrics)) {
                    assertThat(get(http, s, null).statusCode()).isEqualTo(401);
                    assertThat(get(http, s, "alice-token").statusCode()).isEqualTo(403);
                    assertThat(get(http, s, "prometheus-token").statusCode()).isEqualTo(200);
                }
                await("the agent's state scraped")
                        .atMost(Duration.ofSeconds(60))
                        .until(
                                () ->
                                        get(http, agentMetrics, "prometheus-token")
                                                .body()
                                                .contains("mcd_state{state=\"Done\""));
                assertThat(get(http, agentMetrics, "prometheus-token").body())
                        .contains("mcd_drain_err 0\n")
                        .contains("# TYPE mcd_reboots_failed_total counter\n")
                        .contains("mcd_reboots_failed_total 0\n")
                        .contains("mcd_pivot_errors_total 0\n")
                        .contains("mcd_update_state{config=\"rendered-worker-");
                assertThat(get(http, controllerMetrics, "prometheus-token").body())
                        .contains("mcc_drain_err{node=\"w0\"} 0\n")
                        .contains("mco_machine_count{pool=\"worker\"} 1\n")
                        .contains("upshift_pool_paused{pool=\"worker\",required=\"false\"} 0\n")
                        .contains("upshift_pool_rollout_held{pool=\"worker\",reason=\"\"} 0\n");
            }
        }
    }

    static HttpResponse<String> get(HttpClient http, MetricsServer s, String token)
            throws Exception {
        HttpRequest.Builder r =
                HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + s.port() + "/metrics"));
        if (token != null) r.header("Authorization", "Bearer " + token);
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpClient pinned(ServingCertificate cert) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("serving", cert.certificate());
        TrustManagerFactory tmf =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(context).build();
    }
}
