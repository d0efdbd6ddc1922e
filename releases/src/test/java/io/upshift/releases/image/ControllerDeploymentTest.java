package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.manifest.ManifestTemplate;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.testkit.TestPayloads;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller's Deployment a release carries is deploy/'s, with the release image and {@code
 * --release}; a payload with a controller of its own, or a base other than Upshift's image, is left
 * as it is. (Taking over the installed Deployment with it: ControllerTakeoverTest.)
 */
class ControllerDeploymentTest {

    private static final String NEW_RELEASE = "registry.example/releases@sha256:" + "b".repeat(64);

    @TempDir Path dir;

    @Test
    void theReleasedDeploymentIsDeploysWithTheReleaseImageAndRelease() throws Exception {
        JsonNode deploy =
                Mappers.YAML.readTree(Files.readString(Path.of("../deploy/deployment.yaml")));
        ObjectNode released = ControllerDeployment.released();
        assertThat(ControllerDeployment.installed()).isEqualTo(deploy);
        ObjectNode expected = deploy.deepCopy();
        ((ObjectNode) expected.path("metadata"))
                .putObject("annotations")
                .put("include.release.openshift.io/self-managed-high-availability", "true");
        ObjectNode c = ControllerDeployment.container(expected);
        c.put("image", "{{.ReleaseImage}}");
        c.withArrayProperty("args").add("--release").add("{{.ReleaseImage}}");
        assertThat(released).isEqualTo(expected);
        // the manifest text reads back as the same object once its template is filled
        JsonNode rendered = render(ControllerDeployment.manifest(), NEW_RELEASE);
        assertThat(ControllerDeployment.container(rendered).path("image").asText())
                .isEqualTo(NEW_RELEASE);
    }

    @Test
    void aReleaseOnUpshiftsImageWithoutAControllerGetsDeploys() throws Exception {
        Path payload = payloadWithoutController();
        List<String> said = new ArrayList<>();
        BuiltImage image =
                ImageBuilder.build(
                        payload,
                        "1.0.1",
                        List.of(),
                        upshiftBase(),
                        Files.createDirectories(dir.resolve("work")),
                        said::add);

        Path manifests = unpack(image);
        assertThat(Files.readString(manifests.resolve(ControllerDeployment.FILE)))
                .isEqualTo(ControllerDeployment.manifest());
        assertThat(said)
                .singleElement()
                .asString()
                .contains(
                        "manifests/ has no cluster-version operator Deployment"
                                + " openshift-cluster-version/cluster-version-operator: added"
                                + " deploy/'s")
                .contains(ControllerDeployment.FILE);
        assertThat(payload.resolve("manifests").resolve(ControllerDeployment.FILE))
                .as("the payload directory given is left as it is")
                .doesNotExist();
    }

    @Test
    void aPayloadWithItsOwnControllerOrWithoutUpshiftsImageIsLeftAsItIs() throws Exception {
        // TestPayloads' operator Deployment runs the release image: it is the release's controller
        Path own = TestPayloads.write(dir.resolve("own"), "1.0.1", 1, 0);
        List<String> said = new ArrayList<>();
        Path manifests =
                unpack(
                        ImageBuilder.build(
                                own,
                                "1.0.1",
                                List.of(),
                                upshiftBase(),
                                Files.createDirectories(dir.resolve("w1")),
                                said::add));
        assertThat(manifests.resolve(ControllerDeployment.FILE)).doesNotExist();
        assertThat(said).isEmpty();

        // no base: the release image runs nothing, and carries no controller
        manifests =
                unpack(
                        ImageBuilder.build(
                                payloadWithoutController(),
                                "1.0.1",
                                List.of(),
                                null,
                                Files.createDirectories(dir.resolve("w2")),
                                said::add));
        assertThat(manifests.resolve(ControllerDeployment.FILE)).doesNotExist();
        assertThat(said).isEmpty();
    }

    @Test
    void aFileInTheWayIsNamed() throws Exception {
        Path payload = payloadWithoutController();
        Files.writeString(
                payload.resolve("manifests").resolve(ControllerDeployment.FILE),
                "apiVersion: v1\n"
                        + "kind: ConfigMap\n"
                        + "metadata:\n"
                        + "  name: x\n"
                        + "  namespace: upshift\n"
                        + "  annotations:\n"
                        + "    include.release.openshift.io/self-managed-high-availability:"
                        + " \"true\"\n");
        assertThatThrownBy(
                        () ->
                                ImageBuilder.build(
                                        payload,
                                        "1.0.1",
                                        List.of(),
                                        upshiftBase(),
                                        Files.createDirectories(dir.resolve("w")),
                                        w -> {}))
                .isInstanceOf(ReleaseException.class)
                .hasMessageContaining(
                        "manifests/"
                                + ControllerDeployment.FILE
                                + " holds no Deployment"
                                + " openshift-cluster-version/cluster-version-operator");
    }

    @Test
    void upstreamsOperatorInAnOpenShiftPayloadIsReplacedByUpshifts() throws Exception {
        Path payload = payloadWithoutController();
        String file = "0000_00_cluster-version-operator_03_deployment.yaml";
        Files.writeString(payload.resolve("manifests").resolve(file), UPSTREAM_OPERATOR);
        List<String> said = new ArrayList<>();
        Path manifests =
                unpack(
                        ImageBuilder.build(
                                payload,
                                "1.0.1",
                                List.of(),
                                upshiftBase(),
                                Files.createDirectories(dir.resolve("w")),
                                said::add));
        assertThat(Files.readString(manifests.resolve(file)))
                .isEqualTo(ControllerDeployment.manifest());
        assertThat(said)
                .containsExactly(
                        "manifests/"
                                + file
                                + " runs upstream's cluster-version operator: replaced by deploy/'s"
                                + " openshift-cluster-version/cluster-version-operator, Upshift's,"
                                + " which takes its place (one operator writes ClusterVersion)");
        // without Upshift's image as its base, the release runs upstream's operator: kept
        manifests =
                unpack(
                        ImageBuilder.build(
                                payload,
                                "1.0.1",
                                List.of(),
                                null,
                                Files.createDirectories(dir.resolve("w2")),
                                w -> {}));
        assertThat(Files.readString(manifests.resolve(file))).isEqualTo(UPSTREAM_OPERATOR);
    }

    @Test
    void aPayloadWithASecondOperatorIsRefusedNamingItsManifest() throws Exception {
        Path payload = TestPayloads.write(dir.resolve("second"), "1.0.1", 1, 0);
        // Upshift's controller under its old names, beside the payload's own operator
        Files.writeString(
                payload.resolve("manifests/0000_00_legacy.yaml"),
                "apiVersion: apps/v1\n"
                        + "kind: Deployment\n"
                        + "metadata: {name: controller, namespace: elsewhere}\n"
                        + "spec:\n"
                        + "  template:\n"
                        + "    spec:\n"
                        + "      containers:\n"
                        + "      - {name: c, image: '{{.ReleaseImage}}', args: [operator]}\n");
        for (ImageBuilder.Base base : java.util.Arrays.asList(upshiftBase(), null)) {
            assertThatThrownBy(
                            () ->
                                    ImageBuilder.build(
                                            payload,
                                            "1.0.1",
                                            List.of(),
                                            base,
                                            Files.createDirectories(
                                                    dir.resolve("w" + System.nanoTime())),
                                            w -> {}))
                    .isInstanceOf(ReleaseException.class)
                    .hasMessageContaining(
                            "manifests/0000_00_legacy.yaml (line 1): the Deployment"
                                    + " elsewhere/controller would be a second cluster-version"
                                    + " operator (it runs the release image's cluster-version"
                                    + " controller (upshift operator)): two operators would write"
                                    + " ClusterVersion");
        }
    }

    private static final String UPSTREAM_OPERATOR =
            "apiVersion: apps/v1\n"
                    + "kind: Deployment\n"
                    + "metadata:\n"
                    + "  name: cluster-version-operator\n"
                    + "  namespace: openshift-cluster-version\n"
                    + "  annotations:\n"
                    + "    include.release.openshift.io/self-managed-high-availability: \"true\"\n"
                    + "spec:\n"
                    + "  template:\n"
                    + "    spec:\n"
                    + "      containers:\n"
                    + "      - name: cluster-version-operator\n"
                    + "        image: '{{.ReleaseImage}}'\n"
                    + "        args: [start, '--release-image={{.ReleaseImage}}']\n";

    private Path payloadWithoutController() throws Exception {
        Path payload =
                TestPayloads.write(dir.resolve("payload-" + System.nanoTime()), "1.0.1", 1, 0);
        Files.delete(
                payload.resolve("manifests/0000_00_cluster-version-operator_01_deployment.yaml"));
        return payload;
    }

    /**
     * Upshift's image as a base: its config's title label is what counts (no layers needed here).
     */
    private static ImageBuilder.Base upshiftBase() {
        byte[] config =
                ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"config\":{\"Labels\":{\""
                                + UpshiftImage.TITLE_LABEL
                                + "\":\""
                                + UpshiftImage.TITLE
                                + "\"}},\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[]}}")
                        .getBytes(StandardCharsets.UTF_8);
        return new ImageBuilder.Base(
                "registry.example/upshift@sha256:" + "c".repeat(64), config, List.of());
    }

    private Path unpack(BuiltImage image) throws Exception {
        Path to = dir.resolve("unpacked-" + System.nanoTime());
        ImageFiles.unpack(List.of(image.layer()), "manifests", to);
        return to;
    }

    private static JsonNode render(String manifest, String releaseImage) throws Exception {
        return Mappers.YAML.readTree(
                new ManifestTemplate(releaseImage, "self-managed-high-availability", Map.of())
                        .render(manifest));
    }
}
