package io.upshift.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.upshift.api.json.Mappers;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What kubectl and oc read before and while they name resources: discovery, and lists of their own kind. */
class DiscoveryTest {
    private EmbeddedApiServer server;

    @BeforeEach
    void start() throws Exception {
        server = new EmbeddedApiServer();
        try (InputStream in = DiscoveryTest.class.getResourceAsStream("/crds/clusteroperators.config.openshift.io.yaml")) {
            server.client().resource(Mappers.YAML.readValue(in, CustomResourceDefinition.class)).create();
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
        assertThat(groups.findValuesAsText("name")).contains("apps", "config.openshift.io", "apiextensions.k8s.io");
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
        server.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("n1").endMetadata().build()).create();
        JsonNode nodes = get("api/v1/nodes");
        assertThat(nodes.path("kind").asText()).isEqualTo("NodeList");
        assertThat(nodes.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(nodes.path("items")).hasSize(1);

        JsonNode operators = get("apis/config.openshift.io/v1/clusteroperators");
        assertThat(operators.path("kind").asText()).isEqualTo("ClusterOperatorList");
        assertThat(operators.path("apiVersion").asText()).isEqualTo("config.openshift.io/v1");

        assertThat(get("api/v1/namespaces/default/pods?limit=10").path("kind").asText()).isEqualTo("PodList");
        assertThat(server.client().nodes().list().getItems()).hasSize(1);
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).as("clients asking for protobuf first read an unnamed body as protobuf").hasValue("application/json");
        return Mappers.JSON.readTree(r.body());
    }
}
