package io.upshift.runtime.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.FeatureGate;
import io.fabric8.openshift.api.model.config.v1.FeatureGateBuilder;
import io.fabric8.openshift.api.model.config.v1.Proxy;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.ServiceAccount;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A kind a controller works without: absent (no CRD) or refused (no RBAC rule) is known at once and
 * its start never waits on it; an absent kind costs no request until its CRD appears, a refused one
 * is asked again with backoff. On an API server ({@link ApiServers}: the real one when the binaries
 * are there): absent is a real 404, refused deploy/rbac.yaml's own 403.
 */
@Tag("e2e")
class OptionalInformerTest {
    static final String GATES = "/apis/config.openshift.io/v1/featuregates";
    static final String PROXIES = "/apis/config.openshift.io/v1/proxies";

    static OptionalInformer<FeatureGate> gate(KubernetesClient client, Backoff retry) {
        return new OptionalInformer<>(
                client,
                "featuregates.config.openshift.io",
                "the default feature set",
                () -> client.resources(FeatureGate.class).withName("cluster").runnableInformer(0),
                retry);
    }

    /** OpenShift's FeatureGate CRD, reduced to what a test needs: a kind that any object fits. */
    static CustomResourceDefinition featureGates() {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("featuregates.config.openshift.io")
                .endMetadata()
                .withNewSpec()
                .withGroup("config.openshift.io")
                .withScope("Cluster")
                .withNewNames()
                .withKind("FeatureGate")
                .withListKind("FeatureGateList")
                .withPlural("featuregates")
                .withSingular("featuregate")
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema()
                .endSchema()
                .endVersion()
                .endSpec()
                .build();
    }

    static int requests(ApiServer server, String path) {
        return server.requests().matching(r -> r.path().startsWith(path)).size();
    }

    @Test
    void anAbsentKindIsKnownAtOnceCostsNoRequestAndIsReadOnceItsCrdIsEstablished()
            throws Exception {
        try (ApiServer server = ApiServers.start().installRbac();
                KubernetesClient controller =
                        server.client("upshift-operator", ServiceAccount.UPSHIFT);
                OptionalInformer<FeatureGate> gate =
                        gate(controller, OptionalInformer.REFUSED_RETRY)) {
            AtomicInteger changes = new AtomicInteger();
            gate.onChange(changes::incrementAndGet);
            gate.start().get(60, TimeUnit.SECONDS);
            assertThat(gate.availability().state()).isEqualTo(OptionalInformer.State.ABSENT);
            assertThat(gate.availability().detail()).startsWith("HTTP 404:");
            assertThat(gate.get("cluster")).isNull();
            int asked = requests(server, GATES);

            // fabric8 lists a kind it may not do without again after 1, 2, 4... s: a plain
            // informer of another absent kind, told to keep trying as Informers tells a required
            // kind's, shows that much time passed, at this machine's pace, while the optional one
            // watched its CRD instead and asked nothing
            SharedIndexInformer<Proxy> plain =
                    controller.resources(Proxy.class).withName("cluster").runnableInformer(0);
            plain.exceptionHandler((started, t) -> true);
            plain.start();
            try {
                await("a plain informer of an absent kind listing it again, twice")
                        .atMost(Duration.ofMinutes(2))
                        .until(() -> requests(server, PROXIES) >= 3);
            } finally {
                plain.stop();
            }
            assertThat(requests(server, GATES)).as("requests for the absent kind").isEqualTo(asked);

            // the CRD installed (OpenShift's config CRDs applied later), with its object
            server.client()
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(featureGates())
                    .create();
            await("the CRD served")
                    .atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .until(
                            () -> {
                                server.client()
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
                                return true;
                            });
            await("read once served")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> gate.get("cluster") != null);
            assertThat(gate.availability().state()).isEqualTo(OptionalInformer.State.SYNCED);
            assertThat(gate.get("cluster").getSpec().getFeatureSet())
                    .isEqualTo("TechPreviewNoUpgrade");
            assertThat(changes.get())
                    .as("absent, then served: each asks for a run")
                    .isGreaterThanOrEqualTo(2);
        }
    }

    static final String POOLS =
            "\"system:serviceaccount:openshift-machine-config-operator:machine-config-operator\"";

    @Test
    void aRefusedKindIsNamedWithTheServersAnswerAndAskedAgainUntilAllowed() throws Exception {
        try (ApiServer server = ApiServers.start().installRbac()) {
            server.client()
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(featureGates())
                    .create();
            // the pool controller: deploy/rbac.yaml lets it read no FeatureGate
            try (KubernetesClient pools =
                            server.client("upshift-pools", ServiceAccount.MACHINE_CONFIG_OPERATOR);
                    OptionalInformer<FeatureGate> gate =
                            gate(
                                    pools,
                                    new Backoff(
                                            Duration.ofMillis(200),
                                            2,
                                            Duration.ofMillis(800),
                                            0))) {
                gate.start().get(60, TimeUnit.SECONDS);
                assertThat(gate.availability().state()).isEqualTo(OptionalInformer.State.REFUSED);
                assertThat(gate.availability().detail())
                        .isEqualTo(
                                "HTTP 403: featuregates.config.openshift.io \"cluster\" is"
                                        + " forbidden: User "
                                        + POOLS
                                        + " cannot list resource \"featuregates\" in API group"
                                        + " \"config.openshift.io\" at the cluster scope");
                await("asked again")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> requests(server, GATES) >= 3);

                allowFeatureGates(server, ServiceAccount.MACHINE_CONFIG_OPERATOR);
                await("read once allowed")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> gate.availability().state() == OptionalInformer.State.SYNCED);
                assertThat(gate.get("cluster"))
                        .isNull(); // served, and no FeatureGate: the default feature set
            }
        }
    }

    /** The RBAC rule an administrator adds: {@code account} may read FeatureGates. */
    static void allowFeatureGates(ApiServer server, ServiceAccount account) {
        server.client()
                .rbac()
                .clusterRoles()
                .resource(
                        new ClusterRoleBuilder()
                                .withNewMetadata()
                                .withName("featuregate-reader")
                                .endMetadata()
                                .addNewRule()
                                .withApiGroups("config.openshift.io")
                                .withResources("featuregates")
                                .withVerbs("get", "list", "watch")
                                .endRule()
                                .build())
                .create();
        server.client()
                .rbac()
                .clusterRoleBindings()
                .resource(
                        new ClusterRoleBindingBuilder()
                                .withNewMetadata()
                                .withName("featuregate-reader")
                                .endMetadata()
                                .withNewRoleRef(
                                        "rbac.authorization.k8s.io",
                                        "ClusterRole",
                                        "featuregate-reader")
                                .addNewSubject()
                                .withKind("ServiceAccount")
                                .withNamespace(account.namespace())
                                .withName(account.name())
                                .endSubject()
                                .build())
                .create();
    }

    @Test
    void aControllersStartWaitsForItsRequiredCachesOnlyAndFailsNamingTheOneThatCannotFill()
            throws Exception {
        try (ApiServer server = ApiServers.start().installRbac()) {
            // an absent optional kind: the start completes
            try (KubernetesClient controller =
                            server.client("upshift-operator", ServiceAccount.UPSHIFT);
                    Informers informers = new Informers(() -> {})) {
                informers.add(controller.configMaps().inNamespace("ns").runnableInformer(0));
                OptionalInformer<FeatureGate> gate =
                        informers.optional(gate(controller, OptionalInformer.REFUSED_RETRY));
                informers.start(Duration.ofSeconds(60));
                assertThat(gate.availability().state()).isEqualTo(OptionalInformer.State.ABSENT);
            }
            // a required kind refused (the pool controller may not read ClusterVersions): the
            // start fails once its bound is reached (what is tested), in one line naming the kind
            // and the answer
            try (KubernetesClient pools =
                            server.client("upshift-pools", ServiceAccount.MACHINE_CONFIG_OPERATOR);
                    Informers informers = new Informers(() -> {})) {
                informers.add(
                        pools.resources(ClusterVersion.class)
                                .withName("version")
                                .runnableInformer(0));
                informers.optional(gate(pools, OptionalInformer.REFUSED_RETRY));
                assertThatThrownBy(() -> informers.start(Duration.ofSeconds(10)))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage(
                                "caches not filled within 10 s:"
                                        + " clusterversions.config.openshift.io: HTTP 403:"
                                        + " clusterversions.config.openshift.io \"version\" is"
                                        + " forbidden: User "
                                        + POOLS
                                        + " cannot list resource \"clusterversions\" in API group"
                                        + " \"config.openshift.io\" at the cluster scope");
            }
        }
    }
}
