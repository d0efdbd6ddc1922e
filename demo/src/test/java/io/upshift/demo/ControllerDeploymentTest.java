package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The controller's Deployment in deploy/ (what an install creates) and in a release's payload (what takes it over at
 * run-level 0) are the same object with the same immutable parts: otherwise the first update of it is refused.
 */
class ControllerDeploymentTest {

    @Test
    void deployAndThePayloadAgreeOnTheControllersDeployment() throws Exception {
        JsonNode installed = Mappers.YAML.readTree(Files.readString(Path.of("../deploy/deployment.yaml")));
        JsonNode released = Mappers.YAML.readTree(DemoPayloads.controller("1.0.0"));
        for (String field : new String[] {"/kind", "/metadata/name", "/metadata/namespace", "/spec/selector", "/spec/strategy/type",
                "/spec/template/metadata/labels", "/spec/template/spec/serviceAccountName", "/spec/template/spec/containers/0/name"}) {
            assertThat(released.at(field)).as(field).isEqualTo(installed.at(field)).isNotNull();
            assertThat(released.at(field).isMissingNode()).as(field).isFalse();
        }
        assertThat(released.at("/spec/template/spec/containers/0/args").toString()).contains("\"--release\",\"{{.ReleaseImage}}\"");
        // an update keeps how /metrics is served and who may scrape it
        for (String option : new String[] {"\"--metrics-port\",\"9099\"", "\"--metrics-auth\",\"token\""}) {
            assertThat(installed.at("/spec/template/spec/containers/0/args").toString()).contains(option);
            assertThat(released.at("/spec/template/spec/containers/0/args").toString()).contains(option);
        }
    }
}
