package io.upshift.graph.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.graph.model.Risk;
import io.upshift.graph.risk.MatchCache;
import io.upshift.graph.risk.RiskCondition;
import io.upshift.graph.risk.RiskEvaluation;
import io.upshift.graph.updates.ConditionalTarget;
import io.upshift.graph.updates.Target;
import io.upshift.testkit.BearerTokenFront;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.LocalPrometheus;
import io.upshift.testkit.ServiceAccount;
import io.upshift.testkit.TestCertificates;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PromQL risks against a Prometheus that, as OpenShift's thanos-querier, serves TLS with a
 * certificate of the service CA for its Service's DNS name and answers only requests bearing a
 * token: Debian's real {@code prometheus} behind {@link BearerTokenFront}. The matcher finds the
 * Service's cluster IP on the embedded API server (as the controller's ServiceAccount, under
 * deploy/'s RBAC), trusts the CA bundle file and sends the token file's content; without the token
 * the risk's Applies condition names the 401.
 */
@Tag("e2e")
class AuthenticatedPrometheusTest {

    static final String HOST = "thanos-querier.openshift-monitoring.svc.cluster.local";
    static final Risk.MatchingRule AWS =
            new Risk.MatchingRule(
                    "PromQL",
                    "cluster_infrastructure_provider{type=\"AWS\"} or 0 *"
                            + " cluster_infrastructure_provider");
    static final Risk.MatchingRule VSPHERE =
            new Risk.MatchingRule(
                    "PromQL",
                    "cluster_infrastructure_provider{type=\"VSphere\"} or 0 *"
                            + " cluster_infrastructure_provider");

    @TempDir static Path dir;
    static LocalPrometheus prometheus;
    static TestCertificates serviceCa;
    static BearerTokenFront thanos;
    static EmbeddedApiServer api;
    static KubernetesClient controller;
    static final AtomicReference<String> token = new AtomicReference<>();
    static Path caFile, tokenFile;

    @BeforeAll
    static void start() throws Exception {
        prometheus =
                LocalPrometheus.start(
                        Files.createDirectories(dir.resolve("prometheus")),
                        "cluster_infrastructure_provider{type=\"AWS\"} 1\n");
        serviceCa = TestCertificates.authority("openshift-service-serving-signer");
        thanos = BearerTokenFront.start(prometheus.url(), serviceCa.server(HOST), token::get);
        api = new EmbeddedApiServer().installRbac();
        api.client()
                .services()
                .resource(
                        new ServiceBuilder()
                                .withNewMetadata()
                                .withNamespace("openshift-monitoring")
                                .withName("thanos-querier")
                                .endMetadata()
                                .withNewSpec()
                                .withClusterIP("127.0.0.1")
                                .addNewPort()
                                .withName("web")
                                .withPort(9091)
                                .endPort()
                                .endSpec()
                                .build())
                .create();
        controller = api.client("upshift-operator", ServiceAccount.UPSHIFT);
        caFile = Files.writeString(dir.resolve("service-ca.crt"), serviceCa.pem());
        tokenFile = dir.resolve("token");
    }

    @BeforeEach
    void freshToken() throws Exception {
        token.set("token-one");
        Files.writeString(tokenFile, "token-one\n");
    }

    @AfterAll
    static void stop() {
        if (thanos != null) thanos.close();
        if (prometheus != null) prometheus.close();
        if (controller != null) controller.close();
        if (api != null) api.close();
    }

    /** Upstream's default target, at the test's port, with these files. */
    static PromQLTarget target(Path ca, Path token) {
        return new PromQLTarget(
                URI.create("https://" + HOST + ":" + thanos.port()),
                false,
                "openshift-monitoring",
                "thanos-querier",
                ca,
                token);
    }

    static PrometheusMatcher matcher(PromQLTarget target) {
        return new PrometheusMatcher(
                target, new ClusterServices(controller), "cluster-abc", Duration.ofSeconds(10));
    }

    static Risk risk(Risk.MatchingRule rule) {
        return new Risk("https://example.com/aws", "AWSOnly", "AWS clusters break.", List.of(rule));
    }

    @Test
    void theServiceCaAndTheTokenGetAnAnswerFromTheServiceClusterIp() throws Exception {
        PrometheusMatcher m = matcher(target(caFile, tokenFile));
        assertThat(m.match(AWS)).isTrue();
        assertThat(m.match(VSPHERE)).isFalse();
        assertThat(
                        RiskEvaluation.applies(
                                risk(AWS),
                                MatchCache.standard(),
                                matcher(target(caFile, tokenFile)),
                                Instant.now()))
                .isEqualTo(new RiskCondition("Applies", "True", "Match", ""));
    }

    @Test
    void withoutTheTokenTheAppliesConditionNamesThe401() {
        int refused = thanos.refused();
        RiskCondition applies =
                RiskEvaluation.applies(
                        risk(AWS),
                        MatchCache.standard(),
                        matcher(target(caFile, null)),
                        Instant.now());
        assertThat(applies.status()).isEqualTo("Unknown");
        assertThat(applies.reason()).isEqualTo("EvaluationFailed");
        assertThat(applies.message())
                .isEqualTo(
                        "Could not evaluate exposure to update risk AWSOnly (executing PromQL"
                                + " query: client_error: client error: 401)\n"
                                + "  AWSOnly description: AWS clusters break.\n"
                                + "  AWSOnly URL: https://example.com/aws");
        assertThat(thanos.refused()).isEqualTo(refused + 1);
        // and the conditional update exposed to it says the same
        RiskCondition recommended =
                RiskEvaluation.recommended(
                        new ConditionalTarget(
                                new Target("4.19.1", "reg/r@sha256:1", "", List.of(), ""),
                                List.of(risk(AWS))),
                        Map.of("AWSOnly", applies),
                        Set.of());
        assertThat(recommended)
                .isEqualTo(
                        new RiskCondition(
                                "Recommended", "Unknown", "EvaluationFailed", applies.message()));
    }

    @Test
    void theTokenIsReadAgainAtEachQuerySoARotatedTokenKeepsWorking() throws Exception {
        PrometheusMatcher m = matcher(target(caFile, tokenFile));
        assertThat(m.match(AWS)).isTrue();
        token.set("token-two"); // the API server stops accepting the old token ...
        assertThatThrownBy(() -> m.match(AWS))
                .hasMessage("executing PromQL query: client_error: client error: 401");
        Files.writeString(tokenFile, "token-two\n"); // ... and the kubelet projects the new one
        assertThat(m.match(AWS)).isTrue();
    }

    @Test
    void aServerCertificateTheBundleDoesNotSignOrThatNamesAnotherHostIsRefused() throws Exception {
        Path other =
                Files.writeString(
                        dir.resolve("other-ca.crt"), TestCertificates.authority("other").pem());
        assertThatThrownBy(() -> matcher(target(other, tokenFile)).match(AWS))
                .hasMessageStartingWith(
                        "executing PromQL query: Get \"https://127.0.0.1:"
                                + thanos.port()
                                + "/api/v1/query?query=");
        // the right CA, but a URL naming a host the certificate is not for
        PromQLTarget elsewhere =
                new PromQLTarget(
                        URI.create("https://prometheus.example.com:" + thanos.port()),
                        false,
                        "openshift-monitoring",
                        "thanos-querier",
                        caFile,
                        tokenFile);
        assertThatThrownBy(() -> matcher(elsewhere).match(AWS))
                .hasMessageContaining(
                        "x509: certificate is valid for " + HOST + ", not prometheus.example.com");
    }

    @Test
    void missingFilesAndServicesFailInUpstreamsWords() throws Exception {
        Path none = dir.resolve("absent");
        assertThatThrownBy(() -> matcher(target(none, tokenFile)).match(AWS))
                .hasMessage(
                        "creating PromQL round-tripper: unable to read CA cert: unable to read file"
                                + " "
                                + none
                                + ": open "
                                + none
                                + ": no such file or directory");
        Path garbage = Files.writeString(dir.resolve("garbage.crt"), "not a certificate");
        assertThatThrownBy(() -> matcher(target(garbage, tokenFile)).match(AWS))
                .hasMessage(
                        "creating PromQL round-tripper: unable to use specified CA cert file "
                                + garbage);
        assertThatThrownBy(() -> matcher(target(caFile, none)).match(AWS))
                .hasMessageEndingWith(
                        "\": unable to read authorization credentials: unable to read file "
                                + none
                                + ": open "
                                + none
                                + ": no such file or directory");
        PromQLTarget noService =
                new PromQLTarget(
                        target(caFile, tokenFile).url(),
                        false,
                        "openshift-monitoring",
                        "thanos-querier-gone",
                        caFile,
                        tokenFile);
        assertThatThrownBy(() -> matcher(noService).match(AWS))
                .hasMessage(
                        "failure determine thanos IP: services \"thanos-querier-gone\" not found");
    }
}
