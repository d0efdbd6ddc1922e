package io.upshift.releases.payload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PayloadLoaderTest {

    @TempDir Path dir;

    private final List<String> warnings = new ArrayList<>();

    private Payload load(Path p) throws ReleaseException {
        return PayloadLoader.load(
                p,
                "registry.example/release@sha256:" + "a".repeat(64),
                InclusionRules.defaults(),
                warnings::add);
    }

    @Test
    void loadsMultiDocumentYamlAndJsonInFileOrderAndIgnoresOtherFiles() throws Exception {
        Path p =
                PayloadDir.at(dir)
                        .version("4.14.1")
                        .file(
                                "release-manifests/0000_20_b_two.yaml",
                                "---\n"
                                        + "apiVersion: v1\n"
                                        + "kind: ConfigMap\n"
                                        + "metadata:\n"
                                        + "  name: one\n"
                                        + "  annotations:\n"
                                        + PayloadDir.INCLUDED
                                        + "---\n"
                                        + "---\n"
                                        + "apiVersion: v1\n"
                                        + "kind: ConfigMap\n"
                                        + "metadata:\n"
                                        + "  name: two\n"
                                        + "  annotations:\n"
                                        + PayloadDir.INCLUDED)
                        .file(
                                "release-manifests/0000_10_a_json.json",
                                "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\","
                                    + "\"annotations\":{\"include.release.openshift.io/self-managed-high-availability\":\"true\"}}}")
                        .file("release-manifests/README.md", "not a manifest")
                        .file("release-manifests/0000_05_x_noext", "kind: Broken")
                        .write();
        Payload payload = load(p);
        assertThat(payload.version()).isEqualTo("4.14.1");
        assertThat(payload.manifests())
                .extracting(Manifest::name)
                .containsExactly("s", "one", "two");
        assertThat(payload.manifests()).extracting(Manifest::line).containsExactly(1, 2, 10);
        assertThat(payload.manifestHash()).hasSize(12).isEqualTo(load(p).manifestHash());
    }

    @Test
    void templatesOperatorManifestsAndSkipsUnknownFieldsWithAWarning() throws Exception {
        Path p =
                PayloadDir.at(dir)
                        .image(
                                "cluster-version-operator",
                                "quay.example/cvo@sha256:" + "b".repeat(64))
                        .file(
                                "manifests/0000_00_cvo_deployment.yaml",
                                "apiVersion: apps/v1\n"
                                        + "kind: Deployment\n"
                                        + "metadata:\n"
                                        + "  name: cvo\n"
                                        + "  namespace: upshift\n"
                                        + "  annotations:\n"
                                        + PayloadDir.INCLUDED
                                        + "spec:\n"
                                        + "  template:\n"
                                        + "    spec:\n"
                                        + "      containers:\n"
                                        + "      - name: a\n"
                                        + "        image: '{{.ReleaseImage}}'\n"
                                        + "      - name: b\n"
                                        + "        image: '{{ index .Images"
                                        + " \"cluster-version-operator\" }}'\n")
                        .file(
                                "manifests/0000_00_cvo_future.yaml",
                                "apiVersion: v1\n"
                                        + "kind: ConfigMap\n"
                                        + "metadata:\n"
                                        + "  name: future\n"
                                        + "  annotations:\n"
                                        + PayloadDir.INCLUDED
                                        + "data:\n  x: '{{.SomethingNew}}'\n")
                        .write();
        Payload payload = load(p);
        assertThat(payload.manifests()).hasSize(1);
        String containers =
                payload.manifests().get(0).object().at("/spec/template/spec/containers").toString();
        assertThat(containers)
                .contains("registry.example/release@sha256:aaaa")
                .contains("quay.example/cvo@sha256:bbbb");
        assertThat(warnings)
                .singleElement()
                .asString()
                .contains("manifests/0000_00_cvo_future.yaml")
                .contains("{{.SomethingNew}}");
        assertThat(payload.warnings()).isEqualTo(warnings);
    }

    @Test
    void releaseManifestsAreNotTemplated() throws Exception {
        Path p =
                PayloadDir.at(dir)
                        .file(
                                "release-manifests/0000_50_x_cm.yaml",
                                "apiVersion: v1\n"
                                        + "kind: ConfigMap\n"
                                        + "metadata:\n"
                                        + "  name: literal\n"
                                        + "  annotations:\n"
                                        + PayloadDir.INCLUDED
                                        + "data:\n  x: '{{.ReleaseImage}}'\n")
                        .write();
        assertThat(load(p).manifests().get(0).object().at("/data/x").asText())
                .isEqualTo("{{.ReleaseImage}}");
    }

    @Test
    void exclusionsCarryTheirReason() throws Exception {
        Path p =
                PayloadDir.at(dir)
                        .configMap("0000_10_a_in.yaml", "in")
                        .file(
                                "release-manifests/0000_10_a_out.yaml",
                                "apiVersion: v1\n"
                                        + "kind: ConfigMap\n"
                                        + "metadata:\n"
                                        + "  name: out\n"
                                        + "  annotations:\n"
                                        + "    include.release.openshift.io/single-node-developer:"
                                        + " \"true\"\n")
                        .write();
        Payload payload = load(p);
        assertThat(payload.manifests()).extracting(Manifest::name).containsExactly("in");
        assertThat(payload.excluded())
                .singleElement()
                .satisfies(
                        e -> {
                            assertThat(e.manifest().name()).isEqualTo("out");
                            assertThat(e.reason())
                                    .isEqualTo(
                                            "include.release.openshift.io/self-managed-high-availability"
                                                + " unset");
                        });
    }

    @Test
    void invalidManifestsAreAllNamedWithFileAndLine() throws Exception {
        Path p =
                PayloadDir.at(dir)
                        .file(
                                "release-manifests/0000_10_a_bad.yaml",
                                "apiVersion: v1\n"
                                        + "kind: ConfigMap\n"
                                        + "metadata:\n"
                                        + "  name: x\n"
                                        + "  annotations: [\n")
                        .file(
                                "release-manifests/0000_20_a_noname.yaml",
                                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  namespace: x\n")
                        .file(
                                "release-manifests/0000_30_a_dup.yaml",
                                "kind: A\n"
                                        + "metadata:\n"
                                        + "  name: x\n"
                                        + "---\n"
                                        + "kind: A\n"
                                        + "metadata:\n"
                                        + "  name: x\n")
                        .write();
        assertThatThrownBy(() -> load(p))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.MANIFEST_INVALID);
                            assertThat(e.getMessage())
                                    .startsWith("3 invalid manifest files: ")
                                    .contains(
                                            "release-manifests/0000_10_a_bad.yaml:5: while parsing"
                                                    + " a flow node: expected the node content, but"
                                                    + " found '<stream end>'")
                                    .contains(
                                            "release-manifests/0000_20_a_noname.yaml:1: the"
                                                    + " ConfigMap has no metadata.name")
                                    .contains(
                                            "release-manifests/0000_30_a_dup.yaml:5: duplicate"
                                                    + " resource A x");
                        });
    }

    @Test
    void releaseMetadataOfTheWrongKindIsRejected() {
        Path p =
                PayloadDir.at(dir)
                        .metadata("{\"kind\":\"cincinnati-metadata-v1\",\"version\":\"1.0.0\"}")
                        .write();
        assertThatThrownBy(() -> load(p))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.RELEASE_METADATA_WRONG_KIND);
                            assertThat(e.getMessage())
                                    .isEqualTo(
                                            "release-manifests/release-metadata: kind is"
                                                    + " \"cincinnati-metadata-v1\", expected"
                                                    + " \"cincinnati-metadata-v0\"");
                        });
    }

    @Test
    void releaseMetadataWithBadVersionsIsRejected() {
        Path p =
                PayloadDir.at(dir)
                        .metadata(
                                "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\"1.0.0\",\"previous\":[\"4.x\"]}")
                        .write();
        assertThatThrownBy(() -> load(p))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.RELEASE_METADATA_INVALID);
                            assertThat(e.getMessage()).contains("previous holds \"4.x\"");
                        });
        Path q =
                PayloadDir.at(dir)
                        .metadata("{\"kind\": \"cincinnati-metadata-v0\",\n \"version\": ")
                        .write();
        assertThatThrownBy(() -> load(q)).hasMessageContaining("not JSON at line 2");
    }

    @Test
    void imageReferencesMustBeNamedAfterTheVersion() {
        Path p = PayloadDir.at(dir).version("1.2.3").imageStreamName("1.2.4").write();
        assertThatThrownBy(() -> load(p))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.IMAGE_REFERENCES_MISMATCH);
                            assertThat(e.getMessage())
                                    .contains("named \"1.2.4\"")
                                    .contains("version \"1.2.3\"");
                        });
    }

    @Test
    void aDirectoryThatIsNoPayloadSaysWhatIsMissing() throws Exception {
        Files.createDirectories(dir.resolve("manifests"));
        assertThatThrownBy(() -> load(dir))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.PAYLOAD_NOT_FOUND);
                            assertThat(e.getMessage()).endsWith("release-manifests/ is missing");
                        });
    }

    /** Conformance: the reference's own sample payloads load to the manifests its tests expect. */
    @Test
    void referencePayloadsLoad() throws Exception {
        Path fixtures =
                Path.of(
                        System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                        "cvo-payloads");
        Assumptions.assumeTrue(Files.isDirectory(fixtures), "shared fixtures not present");
        Payload payload =
                PayloadLoader.load(
                        fixtures.resolve("payloadtest"),
                        "image/release:1",
                        InclusionRules.defaults().withExcludeIdentifier("exclude-test"),
                        warnings::add);
        assertThat(payload.version()).isEqualTo("1.0.0-abc");
        assertThat(payload.metadata().previous()).containsExactly("1.1.1", "1.2.2");
        assertThat(payload.metadata().channels())
                .containsExactly("channel-c", "channel-a", "channel-b");
        assertThat(payload.manifests())
                .extracting(Manifest::name)
                .containsExactly("file-json", "file-yaml", "file-yml");
        assertThat(payload.excluded())
                .extracting(e -> e.manifest().name())
                .containsExactly("file-20-yml");

        Payload arch =
                PayloadLoader.load(
                        fixtures.resolve("payloadtestarch"),
                        "x",
                        InclusionRules.defaults(),
                        warnings::add);
        assertThat(arch.metadata().architecture()).isEqualTo("multi");

        Payload v5 =
                PayloadLoader.load(
                        fixtures.resolve("majorversiontest-v5"),
                        "x",
                        InclusionRules.defaults(),
                        warnings::add);
        assertThat(v5.manifests())
                .extracting(Manifest::name)
                .containsExactly("noversion", "version5only", "version4or5", "excludeversion3");
        assertThat(v5.excluded())
                .extracting(e -> e.manifest().name())
                .containsExactly("version4only");

        Payload gates =
                PayloadLoader.load(
                        fixtures.resolve("featuregatetest"),
                        "x",
                        InclusionRules.defaults().withFeatureSet("", Set.of("ExperimentalFeature")),
                        warnings::add);
        assertThat(gates.manifests())
                .extracting(Manifest::name)
                .containsExactly("always-included", "experimental-feature", "legacy-excluded");
        Payload gates2 =
                PayloadLoader.load(
                        fixtures.resolve("featuregatetest"),
                        "x",
                        InclusionRules.defaults().withFeatureSet("", Set.of("LegacyFeature")),
                        warnings::add);
        assertThat(gates2.manifests())
                .extracting(Manifest::name)
                .containsExactly("always-included");
        assertThat(warnings).isEmpty();
    }
}
