package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.image.ControllerDeployment;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The demo's releases carry the controller's Deployment deploy/ installs (what takes it over at
 * run-level 0): the same object, running the release image with {@code --release}, with only the
 * simulation's version annotation added.
 */
class ControllerDeploymentTest {

    @Test
    void theDemosPayloadCarriesDeploysControllerDeployment() throws Exception {
        JsonNode installed =
                Mappers.YAML.readTree(Files.readString(Path.of("../deploy/deployment.yaml")));
        ObjectNode released = (ObjectNode) Mappers.YAML.readTree(DemoPayloads.controller("1.0.0"));
        assertThat(
                        released.at(
                                        "/metadata/annotations/"
                                                + DemoPayloads.VERSION_ANNOTATION.replace(
                                                        "/", "~1"))
                                .asText())
                .isEqualTo("1.0.0");
        ((ObjectNode) released.path("metadata").path("annotations"))
                .remove(DemoPayloads.VERSION_ANNOTATION);
        assertThat(released).isEqualTo(ControllerDeployment.released());
        // the same object as installed: its immutable selector and everything its pod needs
        for (String field :
                new String[] {
                    "/kind",
                    "/metadata/name",
                    "/metadata/namespace",
                    "/spec/selector",
                    "/spec/strategy",
                    "/spec/template/metadata",
                    "/spec/template/spec/serviceAccountName",
                    "/spec/template/spec/volumes",
                    "/spec/template/spec/containers/0/env",
                    "/spec/template/spec/containers/0/volumeMounts",
                    "/spec/template/spec/containers/0/readinessProbe"
                }) {
            assertThat(released.at(field).isMissingNode()).as(field).isFalse();
            assertThat(released.at(field)).as(field).isEqualTo(installed.at(field));
        }
        assertThat(released.at("/spec/template/spec/containers/0/args").toString())
                .endsWith(",\"--release\",\"{{.ReleaseImage}}\"]");
    }
}
