package io.upshift.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.upshift.api.json.Mappers;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What kubectl and oc read before and while they name resources: discovery, and lists of their own
 * kind.
 */
@Tag("e2e")
class DiscoveryTest {
    private EmbeddedApiServer server;

    @BeforeEach
    void start() throws Exception {
        server = new EmbeddedApiServer();
        try (InputStream in =
                DiscoveryTest.class.getResourceAsStream(
                        "/crds/clusteroperators.config.openshift.io.yaml")) {
            server.client()
                    .resource(Mappers.YAML.readValue(in, CustomResourceDefinition.class))
                    .create();
        }
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void groupsAndResourcesIncludeBuiltInKindsAndCustomResources() throws Exception {
        JsonNode groups = get("apis");
        assertThat(groups.path("kind").asText()).isEqualTo("APIGroupList");
        assertThat(groups.findValuesAsText("name"))
                .contains("apps", "config.openshift.io", "apiextensions.k8s.io");
        assertThat(get("api").path("versions").get(0).asText()).isEqualTo("v1");

        JsonNode config = get("apis/config.openshift.io/v1");
        assertThat(config.path("groupVersion").asText()).isEqualTo("config.openshift.io/v1");
        JsonNode operators = config.path("resources").get(0);
        assertThat(operators.path("name").asText()).isEqualTo("clusteroperators");
        assertThat(operators.path("kind").asText()).isEqualTo("ClusterOperator");
        assertThat(operators.path("namespaced").asBoolean(true)).isFalse();
        assertThat(operators.path("shortNames").get(0).asText()).isEqualTo("co");

        assertThat(get("api/v1").findValuesAsText("name")).contains("pods", "nodes", "configmaps");
        assertThat(get("version").path("gitVersion").asText()).startsWith("v1.");
    }

    @Test
    void listsCarryTheirItemsKindAndGroupVersion() throws Exception {
        for (String name : List.of("n3", "n1", "n2")) {
            server.client()
                    .nodes()
                    .resource(
                            new NodeBuilder()
                                    .withNewMetadata()
                                    .withName(name)
                                    .endMetadata()
                                    .build())
                    .create();
        }
        JsonNode nodes = get("api/v1/nodes");
        assertThat(nodes.path("kind").asText()).isEqualTo("NodeList");
        assertThat(nodes.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(nodes.path("items").findValuesAsText("name"))
                .as("in key order, as etcd lists them")
                .containsExactly("n1", "n2", "n3");

        JsonNode operators = get("apis/config.openshift.io/v1/clusteroperators");
        assertThat(operators.path("kind").asText()).isEqualTo("ClusterOperatorList");
        assertThat(operators.path("apiVersion").asText()).isEqualTo("config.openshift.io/v1");

        assertThat(get("api/v1/namespaces/default/pods?limit=10").path("kind").asText())
                .isEqualTo("PodList");
        assertThat(server.client().nodes().list().getItems())
                .extracting(n -> n.getMetadata().getName())
                .containsExactly("n1", "n2", "n3");
    }

    @Test
    void aClientAskingForATableGetsTheCrdsPrinterColumns() throws Exception {
        String since = Instant.now().minusSeconds(300).truncatedTo(ChronoUnit.SECONDS).toString();
        var etcd =
                server.client()
                        .resource(
                                new io.fabric8.openshift.api.model.config.v1
                                                .ClusterOperatorBuilder()
                                        .withNewMetadata()
                                        .withName("etcd")
                                        .endMetadata()
                                        .build())
                        .create();
        server.client()
                .resource(
                        new ClusterOperatorBuilder(etcd)
                                .withNewStatus()
                                .addNewVersion()
                                .withName("operator")
                                .withVersion("4.19.1")
                                .endVersion()
                                .addNewCondition()
                                .withType("Available")
                                .withStatus("True")
                                .withLastTransitionTime(since)
                                .endCondition()
                                .addNewCondition()
                                .withType("Degraded")
                                .withStatus("False")
                                .endCondition()
                                .endStatus()
                                .build())
                .updateStatus();

        JsonNode table =
                get(
                        "apis/config.openshift.io/v1/clusteroperators",
                        "application/json;as=Table;v=v1;g=meta.k8s.io,application/json");

        assertThat(table.path("kind").asText()).isEqualTo("Table");
        assertThat(table.path("columnDefinitions").findValuesAsText("name"))
                .containsExactly(
                        "Name", "Version", "Available", "Progressing", "Degraded", "Since");
        JsonNode cells = table.path("rows").get(0).path("cells");
        assertThat(cells.get(0).asText()).isEqualTo("etcd");
        assertThat(cells.get(1).asText()).isEqualTo("4.19.1");
        assertThat(cells.get(2).asText()).isEqualTo("True");
        assertThat(cells.get(3).isNull()).as("no Progressing condition").isTrue();
        assertThat(cells.get(4).asText()).isEqualTo("False");
        assertThat(cells.get(5).asText()).matches("4m59s|5m|5m[0-9]s");
        assertThat(table.path("rows").get(0).path("object").path("metadata").path("name").asText())
                .isEqualTo("etcd");
        assertThat(
                        get(
                                        "api/v1/nodes",
                                        "application/json;as=Table;v=v1;g=meta.k8s.io,application/json")
                                .path("kind")
                                .asText())
                .as("no printer columns: the list as it is")
                .isEqualTo("NodeList");
    }

    @Test
    void agesAreKubernetesHumanDurations() {
        assertThat(TablePrinter.age(Duration.ofSeconds(45))).isEqualTo("45s");
        assertThat(TablePrinter.age(Duration.ofSeconds(310))).isEqualTo("5m10s");
        assertThat(TablePrinter.age(Duration.ofMinutes(42))).isEqualTo("42m");
        assertThat(TablePrinter.age(Duration.ofMinutes(200))).isEqualTo("3h20m");
        assertThat(TablePrinter.age(Duration.ofHours(30))).isEqualTo("30h");
        assertThat(TablePrinter.age(Duration.ofHours(76))).isEqualTo("3d4h");
    }

    private JsonNode get(String path) throws Exception {
        return get(path, "application/json");
    }

    private JsonNode get(String path, String accept) throws Exception {
        HttpResponse<String> r =
                server.httpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(server.url() + path))
                                        .header("Accept", accept)
                                        .header("Authorization", "Bearer " + server.adminToken())
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type"))
                .as("clients asking for protobuf first read an unnamed body as protobuf")
                .hasValue("application/json");
        return Mappers.JSON.readTree(r.body());
    }
}
