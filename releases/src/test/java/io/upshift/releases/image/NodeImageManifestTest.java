package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeImageManifestTest {
    static final String IMAGE = "registry.example/node@sha256:" + "ab".repeat(32);

    @TempDir Path payload;

    static final String TEMPLATES =
            """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: openshift-machine-config-operator
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: machine-config-templates
              namespace: openshift-machine-config-operator
              annotations:
                include.release.openshift.io/self-managed-high-availability: "true"
            data:
              releaseVersion: 4.20.1
            """;

    @Test
    void withoutAnOsImageConfigMapOneIsAddedJustBeforeTheTemplatesInTheirNamespace()
            throws Exception {
        Path file = write("release-manifests/0000_80_machine-config_01_templates.yaml", TEMPLATES);
        assertThat(NodeImageManifest.apply(payload, "4.20.1", IMAGE))
                .isEqualTo("release-manifests/0000_80_machine-config_01_templates.yaml");
        List<JsonNode> docs = docs(file);
        assertThat(docs)
                .extracting(d -> d.path("metadata").path("name").asText())
                .containsExactly(
                        "openshift-machine-config-operator",
                        "machine-config-osimageurl",
                        "machine-config-templates");
        JsonNode cm = docs.get(1);
        assertThat(cm.path("metadata").path("namespace").asText())
                .isEqualTo("openshift-machine-config-operator");
        assertThat(cm.path("data").path("baseOSContainerImage").asText()).isEqualTo(IMAGE);
        assertThat(cm.path("data").path("releaseVersion").asText()).isEqualTo("4.20.1");
        assertThat(
                        cm.path("metadata")
                                .path("annotations")
                                .path("include.release.openshift.io/self-managed-high-availability")
                                .asText())
                .isEqualTo("true");
    }

    @Test
    void thePayloadsOwnOsImageConfigMapGetsTheImage() throws Exception {
        write("manifests/0000_80_a_templates.yaml", TEMPLATES);
        Path os =
                write(
                        "manifests/0000_80_a_osimageurl.yaml",
                        """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata:
                          name: machine-config-osimageurl
                          namespace: openshift-machine-config-operator
                        data:
                          releaseVersion: 4.20.0
                          baseOSContainerImage: quay.example/old:1
                          baseOSExtensionsContainerImage: quay.example/ext:1
                        """);
        assertThat(NodeImageManifest.apply(payload, "4.20.1", IMAGE))
                .isEqualTo("manifests/0000_80_a_osimageurl.yaml");
        JsonNode data = docs(os).get(0).path("data");
        assertThat(data.path("baseOSContainerImage").asText()).isEqualTo(IMAGE);
        assertThat(data.path("releaseVersion").asText()).isEqualTo("4.20.1");
        assertThat(data.path("baseOSExtensionsContainerImage").asText())
                .isEqualTo("quay.example/ext:1");
    }

    @Test
    void anImageNotByDigestOrAPayloadWithoutNodeConfigsIsRefused() throws Exception {
        write("manifests/0000_10_x.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n");
        assertThatThrownBy(() -> NodeImageManifest.apply(payload, "1.0.0", "registry.example/n:1"))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.NOT_BY_DIGEST))
                .hasMessageContaining("does not name the image by digest");
        assertThatThrownBy(() -> NodeImageManifest.apply(payload, "1.0.0", IMAGE))
                .hasMessage(
                        "--node-image: the payload renders no node configs (no ConfigMap"
                                + " machine-config-templates in manifests/ or release-manifests/):"
                                + " nothing would boot "
                                + IMAGE);
    }

    Path write(String path, String text) throws Exception {
        Path p = payload.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    static List<JsonNode> docs(Path file) throws Exception {
        try (var it = Mappers.YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile())) {
            return it.readAll();
        }
    }
}
