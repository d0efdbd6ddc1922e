package io.upshift.status.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.upshift.status.model.Alert;
import io.upshift.testkit.BearerTokenFront;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.LocalPrometheus;
import io.upshift.testkit.TestCertificates;
import io.upshift.testkit.ThanosRoute;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster's alerts found and read as oc finds and reads them: Debian's real {@code prometheus},
 * evaluating alerting rules, behind {@link BearerTokenFront} as OpenShift's thanos-querier behind
 * its proxy, reached through the Route {@code openshift-monitoring/thanos-querier} on the embedded
 * API server, with the user's own token; and every way it fails, in oc's words.
 */
@Tag("e2e")
class MonitoringAlertsTest {

    /** Two alerts firing from the first evaluation: one known to affect updates, one critical. */
    static final String RULES =
            "groups:\n"
                    + "- name: upshift-test\n"
                    + "  rules:\n"
                    + "  - alert: PodDisruptionBudgetAtLimit\n"
                    + "    expr: vector(1)\n"
                    + "    labels: {severity: warning, namespace: openshift-etcd,"
                    + " poddisruptionbudget: etcd-guard-pdb}\n"
                    + "    annotations: {summary: The pod disruption budget is preventing further"
                    + " disruption to pods., description: The pod disruption budget is at the"
                    + " minimum disruptions allowed level.}\n"
                    + "  - alert: TestCritical\n"
                    + "    expr: vector(1)\n"
                    + "    labels: {severity: critical, namespace: openshift-monitoring}\n"
                    + "    annotations: {summary: Something critical.}\n";

    @TempDir static Path dir;
    static LocalPrometheus prometheus;
    static TestCertificates ingressCa;
    static BearerTokenFront thanos;
    static final AtomicReference<String> token = new AtomicReference<>();

    EmbeddedApiServer api;

    @BeforeAll
    static void startMonitoring() throws Exception {
        prometheus =
                LocalPrometheus.start(
                        Files.createDirectories(dir.resolve("prometheus")), "up_test 1\n", RULES);
        ingressCa = TestCertificates.authority("ingress-operator");
        thanos =
                BearerTokenFront.start(prometheus.url(), ingressCa.server("127.0.0.1"), token::get);
    }

    @AfterAll
    static void stopMonitoring() {
        if (thanos != null) thanos.close();
        if (prometheus != null) prometheus.close();
    }

    @BeforeEach
    void startApi() {
        api = new EmbeddedApiServer();
        token.set(api.adminToken());
    }

    @AfterEach
    void stopApi() {
        api.close();
    }

    static void install(KubernetesClient client, String... hosts) {
        ThanosRoute.install(client, hosts);
    }

    static String front() {
        return "127.0.0.1:" + thanos.port();
    }

    @Test
    void theRoutesHostIsReadWithTheUsersTokenAndTheFiringAlertsComeBack() {
        install(api.client(), front());
        MonitoringAlerts.Outcome outcome = MonitoringAlerts.read(api.client());
        assertThat(outcome).isInstanceOf(MonitoringAlerts.Outcome.Read.class);
        List<Alert> alerts = ((MonitoringAlerts.Outcome.Read) outcome).alerts();
        assertThat(alerts)
                .extracting(Alert::name)
                .containsExactlyInAnyOrder("PodDisruptionBudgetAtLimit", "TestCritical");
        assertThat(alerts)
                .filteredOn(a -> a.name().equals("PodDisruptionBudgetAtLimit"))
                .singleElement()
                .satisfies(
                        a -> {
                            assertThat(a.state()).isEqualTo("firing");
                            assertThat(a.severity()).isEqualTo("warning");
                            assertThat(a.namespace()).isEqualTo("openshift-etcd");
                            assertThat(a.activeAt()).isNotNull();
                        });
    }

    @Test
    void aHostThatFailsIsPassedForTheNextAndAllFailingAreNamed() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        install(api.client(), "127.0.0.1:" + closed, front());
        assertThat(MonitoringAlerts.read(api.client()))
                .isInstanceOf(MonitoringAlerts.Outcome.Read.class);

        token.set("another");
        assertThat(why(MonitoringAlerts.read(api.client())))
                .startsWith(
                        "failed to get alerts from Thanos: unable to get /api/v1/alerts from any of"
                                + " 2 URIs in the openshift-monitoring/thanos-querier Route:"
                                + " [127.0.0.1:"
                                + closed
                                + "->Get \"https://127.0.0.1:"
                                + closed
                                + "/api/v1/alerts\": ")
                .endsWith(", " + front() + "->GET status code=401]");
    }

    @Test
    void aRefusedTokenIsSaidAsOcSaysIt() {
        install(api.client(), front());
        token.set("another");
        assertThat(why(MonitoringAlerts.read(api.client())))
                .isEqualTo(
                        "failed to get alerts from Thanos: unable to get /api/v1/alerts from URI in"
                                + " the openshift-monitoring/thanos-querier Route: "
                                + front()
                                + "->GET status code=401");
    }

    @Test
    void aClusterWithoutRoutesOrWithoutTheRouteIsSaidAsOcSaysIt() {
        assertThat(why(MonitoringAlerts.read(api.client())))
                .isEqualTo(
                        "failed to get alerts from Thanos: the server could not find the requested"
                                + " resource (get routes.route.openshift.io thanos-querier)");
        api.client()
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(ThanosRoute.crd())
                .create();
        assertThat(why(MonitoringAlerts.read(api.client())))
                .isEqualTo(
                        "failed to get alerts from Thanos: routes.route.openshift.io"
                                + " \"thanos-querier\" not found");
    }

    @Test
    void aSessionWithoutATokenIsNotTried() {
        install(api.client(), front());
        Config noToken =
                new ConfigBuilder(api.client().getConfiguration())
                        .withOauthToken(null)
                        .withAutoOAuthToken(null)
                        .build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(noToken).build()) {
            assertThat(why(MonitoringAlerts.read(client)))
                    .isEqualTo("no token is currently in use for this session");
        }
        assertThat(thanos.refused()).isZero();
    }

    /**
     * The kubeconfig's certificate authorities are trusted alone, and the host checked against the
     * certificate; insecure-skip-tls-verify checks neither.
     */
    @Test
    void theKubeconfigsTrustIsTheRoutes() throws Exception {
        URI url = URI.create("https://" + front() + MonitoringAlerts.PATH);
        Config trusted = new ConfigBuilder().withCaCertData(base64(ingressCa.pem())).build();
        assertThat(fetch(trusted, url).status()).isEqualTo(200);
        Config other =
                new ConfigBuilder()
                        .withCaCertData(base64(TestCertificates.authority("other").pem()))
                        .build();
        assertThat(failure(other, url)).contains("PKIX");
        Config insecure = new ConfigBuilder().withTrustCerts(true).build();
        assertThat(fetch(insecure, url).status()).isEqualTo(200);
        // a certificate for another name
        try (BearerTokenFront elsewhere =
                BearerTokenFront.start(
                        prometheus.url(), ingressCa.server("thanos.example"), token::get)) {
            URI named = URI.create("https://127.0.0.1:" + elsewhere.port() + MonitoringAlerts.PATH);
            assertThat(failure(trusted, named))
                    .contains("x509: certificate is valid for thanos.example, not 127.0.0.1");
            assertThat(fetch(insecure, named).status()).isEqualTo(200);
        }
    }

    private static AlertsClient.Answer fetch(Config config, URI url) throws Exception {
        return new AlertsClient(
                        url, AlertsClient.TIMEOUT, MonitoringAlerts.tls(config, url), token.get())
                .get();
    }

    private static String failure(Config config, URI url) {
        try {
            return "answered " + fetch(config, url).status();
        } catch (Exception e) {
            StringBuilder all = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) all.append(t).append(" | ");
            return all.toString();
        }
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8));
    }

    private static String why(MonitoringAlerts.Outcome o) {
        assertThat(o).as(String.valueOf(o)).isInstanceOf(MonitoringAlerts.Outcome.NotRead.class);
        return ((MonitoringAlerts.Outcome.NotRead) o).why();
    }
}
