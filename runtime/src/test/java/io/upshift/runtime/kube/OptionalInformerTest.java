package io.upshift.runtime.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.FeatureGate;
import io.fabric8.openshift.api.model.config.v1.FeatureGateBuilder;
import io.upshift.testkit.RefusingApiServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A kind a controller works without: absent (no CRD) or refused (no RBAC rule) is known at once and
 * its start never waits on it; an absent kind costs no request until its CRD appears, a refused one
 * is asked again with backoff.
 */
@Tag("e2e")
class OptionalInformerTest {
    static final String GATES = "/apis/config.openshift.io/v1/featuregates";

    static OptionalInformer<FeatureGate> gate(RefusingApiServer server, Backoff retry) {
        return new OptionalInformer<>(
                server.client,
                "featuregates.config.openshift.io",
                "the default feature set",
                () ->
                        server.client
                                .resources(FeatureGate.class)
                                .withName("cluster")
                                .runnableInformer(0),
                retry);
    }

    static CustomResourceDefinition established(String name) {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withGroup("config.openshift.io")
                .withScope("Cluster")
                .withNewNames()
                .withKind("FeatureGate")
                .withPlural("featuregates")
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .endVersion()
                .endSpec()
                .withNewStatus()
                .addNewCondition()
                .withType("Established")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build();
    }

    @Test
    void anAbsentKindIsKnownAtOnceCostsNoRequestAndIsReadOnceItsCrdIsEstablished()
            throws Exception {
        try (RefusingApiServer server = new RefusingApiServer().refuse(GATES, 404);
                OptionalInformer<FeatureGate> gate = gate(server, OptionalInformer.REFUSED_RETRY)) {
            AtomicInteger changes = new AtomicInteger();
            gate.onChange(changes::incrementAndGet);
            gate.start().get(10, TimeUnit.SECONDS);
            assertThat(gate.availability().state()).isEqualTo(OptionalInformer.State.ABSENT);
            assertThat(gate.availability().detail()).startsWith("HTTP 404:");
            assertThat(gate.get("cluster")).isNull();
            // fabric8 alone would list it again after 1, 2, 4... s: the kind's CRD is watched
            // instead
            int asked = server.requests(GATES).size();
            await("no request for an absent kind")
                    .during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(4))
                    .until(() -> server.requests(GATES).size() == asked);

            // the CRD installed (OpenShift's config CRDs applied later), with its object
            server.serve(GATES);
            server.client
                    .resources(FeatureGate.class)
                    .resource(
                            new FeatureGateBuilder()
                                    .withNewMetadata()
                                    .withName("cluster")
                                    .endMetadata()
                                    .withNewSpec()
                                    .withFeatureSet("TechPreviewNoUpgrade")
                                    .endSpec()
                                    .build())
                    .create();
            server.client
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(established("featuregates.config.openshift.io"))
                    .create();
            await("read once served")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> gate.get("cluster") != null);
            assertThat(gate.availability().state()).isEqualTo(OptionalInformer.State.SYNCED);
            assertThat(gate.get("cluster").getSpec().getFeatureSet())
                    .isEqualTo("TechPreviewNoUpgrade");
            assertThat(changes.get())
                    .as("absent, then served: each asks for a run")
                    .isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void aRefusedKindIsNamedWithTheServersAnswerAndAskedAgainUntilAllowed() throws Exception {
        try (RefusingApiServer server = new RefusingApiServer().refuse(GATES, 403);
                OptionalInformer<FeatureGate> gate =
                        gate(
                                server,
                                new Backoff(
                                        Duration.ofMillis(200), 2, Duration.ofMillis(800), 0))) {
            gate.start().get(10, TimeUnit.SECONDS);
            assertThat(gate.availability().state()).isEqualTo(OptionalInformer.State.REFUSED);
            assertThat(gate.availability().detail())
                    .isEqualTo(
                            "HTTP 403: featuregates is forbidden: User"
                                + " \"system:serviceaccount:upshift:upshift\" cannot list resource"
                                + " \"featuregates\" at the cluster scope");
            await("asked again")
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> server.requests(GATES).size() >= 3);

            server.serve(GATES); // the RBAC rule added
            await("read once allowed")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> gate.availability().state() == OptionalInformer.State.SYNCED);
            assertThat(gate.get("cluster"))
                    .isNull(); // served, and no FeatureGate: the default feature set
        }
    }

    @Test
    void aControllersStartWaitsForItsRequiredCachesOnlyAndFailsNamingTheOneThatCannotFill()
            throws Exception {
        try (RefusingApiServer server = new RefusingApiServer().refuse(GATES, 404)) {
            // an absent optional kind: the start completes
            try (Informers informers = new Informers(() -> {})) {
                informers.add(server.client.configMaps().inNamespace("ns").runnableInformer(0));
                OptionalInformer<FeatureGate> gate =
                        informers.optional(gate(server, OptionalInformer.REFUSED_RETRY));
                informers.start(Duration.ofSeconds(10));
                assertThat(gate.availability().state()).isEqualTo(OptionalInformer.State.ABSENT);
            }
            // a required kind refused: the start fails within its bound, in one line naming the
            // kind and the answer
            server.refuse("/apis/config.openshift.io/v1/clusterversions", 403);
            try (Informers informers = new Informers(() -> {})) {
                informers.add(
                        server.client
                                .resources(ClusterVersion.class)
                                .withName("version")
                                .runnableInformer(0));
                informers.optional(gate(server, OptionalInformer.REFUSED_RETRY));
                assertThatThrownBy(() -> informers.start(Duration.ofSeconds(3)))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage(
                                "caches not filled within 3 s: clusterversions.config.openshift.io:"
                                        + " HTTP 403: clusterversions is forbidden: User"
                                        + " \"system:serviceaccount:upshift:upshift\" cannot list"
                                        + " resource \"clusterversions\" at the cluster scope");
            }
        }
    }
}
