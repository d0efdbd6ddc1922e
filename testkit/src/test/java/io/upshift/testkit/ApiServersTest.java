package io.upshift.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a test gets from {@link ApiServers}, on either server: the administrator's and the
 * ServiceAccounts' clients, a request log by User-Agent, refusals in the server's words, CRDs from
 * deploy/crds, and a cluster left empty for the next test.
 */
@Tag("e2e")
class ApiServersTest {
    static final ResourceDefinitionContext CLUSTER_VERSIONS =
            new ResourceDefinitionContext.Builder()
                    .withGroup("config.openshift.io")
                    .withVersion("v1")
                    .withKind("ClusterVersion")
                    .withPlural("clusterversions")
                    .withNamespaced(false)
                    .build();

    @Test
    void aTestLeavesNothingForTheNext() {
        try (ApiServer server = ApiServers.start("clusterversions.config.openshift.io")) {
            KubernetesClient admin = server.client();
            admin.namespaces()
                    .resource(
                            new NamespaceBuilder()
                                    .withNewMetadata()
                                    .withName("left")
                                    .endMetadata()
                                    .build())
                    .create();
            admin.configMaps()
                    .inNamespace("left")
                    .resource(
                            new ConfigMapBuilder()
                                    .withNewMetadata()
                                    .withName("behind")
                                    .addToFinalizers("example.com/hold")
                                    .endMetadata()
                                    .build())
                    .create();
            admin.nodes()
                    .resource(
                            new NodeBuilder()
                                    .withNewMetadata()
                                    .withName("n1")
                                    .endMetadata()
                                    .build())
                    .create();
            admin.genericKubernetesResources(CLUSTER_VERSIONS)
                    .load(
                            new java.io.ByteArrayInputStream(
                                    ("apiVersion: config.openshift.io/v1\n"
                                                    + "kind: ClusterVersion\n"
                                                    + "metadata: {name: version}\n"
                                                    + "spec: {clusterID:"
                                                    + " 9f1c2b7e-3c2a-4d8e-a0f1-5b6c7d8e9f00}\n")
                                            .getBytes(UTF_8)))
                    .create();
        }
        try (ApiServer server = ApiServers.start("clusterversions.config.openshift.io")) {
            KubernetesClient admin = server.client();
            assertThat(admin.namespaces().withName("left").get()).isNull();
            assertThat(admin.configMaps().inNamespace("left").list().getItems()).isEmpty();
            assertThat(admin.nodes().list().getItems()).isEmpty();
            assertThat(admin.genericKubernetesResources(CLUSTER_VERSIONS).list().getItems())
                    .isEmpty();
        }
        try (ApiServer server = ApiServers.start()) {
            if (server.real())
                assertThatThrownBy(
                                () ->
                                        server.client()
                                                .genericKubernetesResources(CLUSTER_VERSIONS)
                                                .list())
                        .as("a CRD the test did not ask for is not there")
                        .isInstanceOfSatisfying(
                                KubernetesClientException.class,
                                e -> assertThat(e.getCode()).isEqualTo(404));
        }
    }

    @Test
    void requestsAreLoggedWithTheirClientAndRefusalsInTheServersWords() throws Exception {
        try (ApiServer server = ApiServers.start().installRbac();
                KubernetesClient agent =
                        server.client("upshift-agent", ServiceAccount.MACHINE_CONFIG_DAEMON)) {
            agent.nodes().list();
            assertThatThrownBy(
                            () ->
                                    agent.configMaps()
                                            .inNamespace("openshift-cluster-version")
                                            .withName("x")
                                            .get())
                    .isInstanceOfSatisfying(
                            KubernetesClientException.class,
                            e -> assertThat(e.getCode()).isEqualTo(403));
            List<RequestLog.Request> seen =
                    server.requests().matching(r -> r.userAgent().equals("upshift-agent"));
            assertThat(seen)
                    .extracting(RequestLog.Request::method, RequestLog.Request::path)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("GET", "/api/v1/nodes"),
                            org.assertj.core.groups.Tuple.tuple(
                                    "GET",
                                    "/api/v1/namespaces/openshift-cluster-version/configmaps/x"));
            assertThat(seen)
                    .allMatch(
                            r ->
                                    r.user()
                                            .equals(
                                                    "system:serviceaccount:openshift-machine-config-operator:machine-config-daemon"));
            assertThat(server.accessRefusals())
                    .containsExactly(
                            "configmaps \"x\" is forbidden: User"
                                + " \"system:serviceaccount:openshift-machine-config-operator:machine-config-daemon\""
                                + " cannot get resource \"configmaps\" in API group \"\" in the"
                                + " namespace \"openshift-cluster-version\"");

            // a raw request with the administrator's token, trusting this server alone
            HttpResponse<String> version =
                    server.httpClient()
                            .send(
                                    HttpRequest.newBuilder(URI.create(server.url() + "/version"))
                                            .header(
                                                    "Authorization",
                                                    "Bearer " + server.adminToken())
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            assertThat(version.statusCode()).isEqualTo(200);
            assertThat(server.kubeconfig(ServiceAccount.MACHINE_CONFIG_DAEMON))
                    .contains(server.url())
                    .contains(server.token(ServiceAccount.MACHINE_CONFIG_DAEMON));
            assertThat(Map.of("description", server.description())).isNotEmpty();
        }
    }

    @Test
    void aCustomResourceItsCrdRejectsIsRefusedAndAStatusSentWithACreateIsNotKept() {
        try (ApiServer server = ApiServers.start("clusteroperators.config.openshift.io")) {
            var operators =
                    server.client()
                            .genericKubernetesResources(
                                    "config.openshift.io/v1", "ClusterOperator");
            var noSpec =
                    new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                            .withApiVersion("config.openshift.io/v1")
                            .withKind("ClusterOperator")
                            .withNewMetadata()
                            .withName("x")
                            .endMetadata()
                            .build();
            assertThatThrownBy(() -> operators.resource(noSpec).create())
                    .isInstanceOfSatisfying(
                            KubernetesClientException.class,
                            e -> {
                                assertThat(e.getCode()).isEqualTo(422);
                                assertThat(e.getStatus().getMessage())
                                        .isEqualTo(
                                                "ClusterOperator.config.openshift.io \"x\" is"
                                                        + " invalid: spec: Required value");
                            });
            noSpec.setAdditionalProperty("spec", Map.of());
            noSpec.setAdditionalProperty(
                    "status",
                    Map.of("versions", List.of(Map.of("name", "operator", "version", "1"))));
            operators.resource(noSpec).create();
            assertThat(operators.withName("x").get().getAdditionalProperties())
                    .doesNotContainKey("status");
        }
    }
}
