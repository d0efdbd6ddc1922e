package io.upshift.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Our ClusterVersion and ClusterOperator CRDs accept what OpenShift's accept (real objects from the
 * shared fixtures), and our ClusterVersion accepts the capability names an older release's CRD
 * rejects.
 */
class ClusterVersionCrdTest {

    static final ObjectMapper YAML = new YAMLMapper();

    static Path fixtures() {
        return Path.of(System.getProperty("upshift.fixtures", "../../shared/fixtures"));
    }

    /**
     * The objects in the shared snapshot files whose names end with the suffix ("-cv.yaml",
     * "-mcp.yaml" ...).
     */
    static List<JsonNode> objects(String suffix) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String dir : List.of("oc-status", "oc-recommend")) {
            try (Stream<Path> files = Files.list(fixtures().resolve(dir))) {
                for (Path f : files.filter(p -> p.toString().endsWith(suffix)).sorted().toList()) {
                    JsonNode doc = YAML.readTree(f.toFile());
                    if (doc.has("items")) doc.path("items").forEach(out::add);
                    else out.add(doc);
                }
            }
        }
        return out;
    }

    static CrdSchema upstream(String file) throws Exception {
        try (InputStream in = Files.newInputStream(fixtures().resolve("crds").resolve(file))) {
            return CrdSchema.of(in, "v1");
        }
    }

    @Test
    void realClusterVersionsAndOperatorsValidate() throws Exception {
        Assumptions.assumeTrue(
                Files.isDirectory(fixtures().resolve("crds")), "shared fixtures not present");
        CrdSchema ours = CrdSchema.bundled("clusterversions.config.openshift.io", "v1");
        CrdSchema theirs =
                upstream(
                        "current/0000_00_cluster-version-operator_01_clusterversions-Default.crd.yaml");
        List<JsonNode> cvs = objects("-cv.yaml");
        int checkedCvs = 0;
        for (JsonNode cv : cvs) {
            if (!theirs.violations(cv).isEmpty())
                continue; // only objects OpenShift's own CRD accepts
            assertThat(ours.violations(cv)).as(cv.path("metadata").path("name").asText()).isEmpty();
            checkedCvs++;
        }
        assertThat(checkedCvs).isGreaterThan(5);
        CrdSchema oursCo = CrdSchema.bundled("clusteroperators.config.openshift.io", "v1");
        CrdSchema theirsCo =
                upstream("current/0000_00_cluster-version-operator_01_clusteroperators.crd.yaml");
        int checked = 0;
        for (JsonNode co : objects("-co.yaml")) {
            if (!theirsCo.violations(co).isEmpty()) continue;
            assertThat(oursCo.violations(co))
                    .as(co.path("metadata").path("name").asText())
                    .isEmpty();
            checked++;
        }
        assertThat(checked).isGreaterThan(20);
    }

    @Test
    void capabilitiesUnknownToAnOlderCrdStillValidate() throws Exception {
        Assumptions.assumeTrue(
                Files.isDirectory(fixtures().resolve("crds")), "shared fixtures not present");
        ObjectNode cv =
                (ObjectNode)
                        YAML.readTree(
                                """
                                apiVersion: config.openshift.io/v1
                                kind: ClusterVersion
                                metadata: {name: version}
                                spec: {clusterID: 0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11}
                                status:
                                  desired: {version: 4.13.0, image: r@sha256:00}
                                  observedGeneration: 1
                                  versionHash: abc
                                  capabilities:
                                    enabledCapabilities: [Build, DeploymentConfig, ImageRegistry, MachineAPI, baremetal]
                                    knownCapabilities: [Build, DeploymentConfig, ImageRegistry, MachineAPI, baremetal]
                                """);
        CrdSchema old =
                upstream(
                        "release-4.13/0000_00_cluster-version-operator_01_clusterversion.crd.yaml");
        assertThat(old.violations(cv)).isNotEmpty();
        assertThat(CrdSchema.bundled("clusterversions.config.openshift.io", "v1").violations(cv))
                .isEmpty();
        ((ArrayNode) cv.path("status").path("capabilities").path("enabledCapabilities"))
                .add("SomethingFromTheFuture");
        assertThat(CrdSchema.bundled("clusterversions.config.openshift.io", "v1").violations(cv))
                .isEmpty();
    }

    /**
     * spec.signatureStores carries openshift/api's validation (config/v1 types_cluster_version.go:
     * {@code MaxItems=32}, {@code listType=map} keyed by url, {@code isURL(self)} on url, {@code
     * ca.name} required); the schema validator here checks the count and the ca, the API server the
     * CEL rule and the keys.
     */
    @Test
    void signatureStoresAreValidatedAsUpstreamValidatesThem() throws Exception {
        JsonNode crd;
        try (InputStream in =
                CrdSchema.class.getResourceAsStream(
                        "/crds/clusterversions.config.openshift.io.yaml")) {
            crd = YAML.readTree(in);
        }
        JsonNode stores =
                crd.at(
                        "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/signatureStores");
        assertThat(stores.path("maxItems").asInt()).isEqualTo(32);
        assertThat(stores.path("x-kubernetes-list-type").asText()).isEqualTo("map");
        assertThat(stores.path("x-kubernetes-list-map-keys").toString()).isEqualTo("[\"url\"]");
        JsonNode url = stores.at("/items/properties/url");
        assertThat(url.path("x-kubernetes-validations").get(0).path("rule").asText())
                .isEqualTo("isURL(self)");
        assertThat(url.path("x-kubernetes-validations").get(0).path("message").asText())
                .isEqualTo("url must be a valid absolute URL");
        assertThat(stores.at("/items/required").toString()).isEqualTo("[\"url\"]");
        assertThat(stores.at("/items/properties/ca/required").toString()).isEqualTo("[\"name\"]");

        CrdSchema ours = CrdSchema.bundled("clusterversions.config.openshift.io", "v1");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 33; i++)
            many.append(i == 0 ? "" : ", ")
                    .append("{url: 'https://sigs.example.com/")
                    .append(i)
                    .append("'}");
        String head =
                "apiVersion: config.openshift.io/v1\n"
                        + "kind: ClusterVersion\n"
                        + "metadata: {name: version}\n"
                        + "spec:\n"
                        + "  clusterID: 0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11\n"
                        + "  signatureStores: ";
        assertThat(ours.violations(YAML.readTree(head + "[" + many + "]\n")))
                .anyMatch(v -> v.contains("signatureStores") && v.contains("32"));
        assertThat(
                        ours.violations(
                                YAML.readTree(
                                        head
                                                + "[{url: 'https://sigs.example.com', ca: {name:"
                                                + " sigs-ca}}]\n")))
                .isEmpty();
        assertThat(
                        ours.violations(
                                YAML.readTree(
                                        head + "[{url: 'https://sigs.example.com', ca: {}}]\n")))
                .anyMatch(v -> v.contains("name"));
    }
}
