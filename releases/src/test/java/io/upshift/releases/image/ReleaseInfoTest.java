package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.metadata.ComponentVersions;
import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadDir;
import io.upshift.releases.payload.PayloadLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code upshift release info} prints: oc's text under oc's headings (the Created line, the
 * manifest files, the component versions its image-references declare, oc's image listings), then
 * Upshift's own.
 */
class ReleaseInfoTest {

    private static final String DIGEST = "sha256:" + "e".repeat(64);
    private static final String AGENT = "quay.example/agent@sha256:" + "a".repeat(64);
    private static final String CLI = "quay.example/cli@sha256:" + "b".repeat(64);
    private static final String HYPERKUBE = "quay.example/hyperkube@sha256:" + "c".repeat(64);

    @TempDir Path dir;
    private Payload payload;
    private ResolvedImage image;
    private ManifestFiles files;

    @BeforeEach
    void payload() throws Exception {
        Path p =
                PayloadDir.at(dir.resolve("p"))
                        .version("1.2.0")
                        .metadata(
                                "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\"1.2.0\","
                                        + "\"previous\":[\"1.1.10\",\"1.1.9\"],"
                                        + "\"metadata\":{\"url\":\"https://example.com/1.2.0\","
                                        + "\"empty\":\"\"}}")
                        .configMap("0000_50_a_cm.yaml", "a")
                        .file("release-manifests/0000_50_a_notes.txt", "not a manifest\n")
                        .write();
        ImageReferences refs =
                new ImageReferences(
                        "1.2.0",
                        null,
                        Map.of(),
                        List.of(
                                new ImageReferences.Tag(
                                        "agent",
                                        Map.of(
                                                ImageReferences.SOURCE_LOCATION,
                                                "https://github.com/openshift/agent",
                                                ImageReferences.COMMIT_ID,
                                                "0123abc"),
                                        new ImageReferences.From("DockerImage", AGENT)),
                                new ImageReferences.Tag(
                                        "cli",
                                        Map.of(ComponentVersions.VERSIONS, "kubectl=1.32.5"),
                                        new ImageReferences.From("DockerImage", CLI)),
                                new ImageReferences.Tag(
                                        "hyperkube",
                                        Map.of(
                                                ComponentVersions.VERSIONS,
                                                "kubernetes=1.32.5+build.7,kubectl=1.31.0",
                                                ComponentVersions.DISPLAY_NAMES,
                                                "kubernetes=Kubernetes"),
                                        new ImageReferences.From("DockerImage", HYPERKUBE)),
                                new ImageReferences.Tag(
                                        "stream",
                                        null,
                                        new ImageReferences.From("ImageStreamTag", "x:latest"))));
        Files.write(p.resolve("release-manifests/image-references"), refs.toJson());
        files = ManifestFiles.count(p.resolve("release-manifests"));
        payload =
                PayloadLoader.load(
                        p, "r.example/release@" + DIGEST, InclusionRules.none(), w -> {});
        image =
                new ResolvedImage(
                        ImageRef.parse("r.example/release@" + DIGEST),
                        DIGEST,
                        new ImageDescriptor(ImageBuilder.CONFIG_MEDIA_TYPE, DIGEST, 1),
                        List.of(new ImageDescriptor(ImageBuilder.LAYER_MEDIA_TYPE, DIGEST, 1234)));
    }

    private ReleaseInfo info(Instant created) {
        return new ReleaseInfo(
                image, payload, "r.example/base@" + DIGEST, created, "linux/amd64", files);
    }

    /**
     * oc's text as oc lays it out: its headings aligned by Go's tabwriter, the upgrades in semantic
     * order, empty metadata left out, kubectl read from the cli tag alone and build metadata
     * dropped, a file that is no manifest counted as a metadata file; then Upshift's sections.
     */
    @Test
    void ocsSectionsComeFirstAsOcPrintsThemThenUpshiftsOwn() {
        assertThat(info(Instant.parse("2025-06-12T08:31:05.750Z")).render())
                .isEqualTo(
                        "Name:           1.2.0\n"
                                + "Digest:         "
                                + DIGEST
                                + "\nCreated:        2025-06-12T08:31:05Z\n"
                                + "OS/Arch:        linux/amd64\n"
                                + "Manifests:      1\n"
                                + "Metadata files: 1\n"
                                + "\n"
                                + "Pull From: r.example/release@"
                                + DIGEST
                                + "\n\n"
                                + "Release Metadata:\n"
                                + "  Version:  1.2.0\n"
                                + "  Upgrades: 1.1.9, 1.1.10\n"
                                + "  Metadata:\n"
                                + "    url: https://example.com/1.2.0\n"
                                + "\n"
                                + "Component Versions:\n"
                                + "  kubectl    1.32.5 \n"
                                + "  kubernetes 1.32.5 Kubernetes\n"
                                + "\n"
                                + "Images:\n"
                                + "  NAME      DIGEST\n"
                                + "  agent     sha256:"
                                + "a".repeat(64)
                                + "\n  cli       sha256:"
                                + "b".repeat(64)
                                + "\n  hyperkube sha256:"
                                + "c".repeat(64)
                                + "\n\n"
                                + "Base Image:   r.example/base@"
                                + DIGEST
                                + "\nImage Layers: 1, 1234 bytes\n"
                                + "\n"
                                + "Payload Documents: 1 (0 excluded for the default profile)\n"
                                + "  run-level 50: 1\n");
        // an image whose config has no time shows Go's zero time, as oc does
        assertThat(info(null).render()).contains("\nCreated:        0001-01-01T00:00:00Z\n");
    }

    @Test
    void anAnnotationOcCannotReadIsAWarningInOcsWords() throws Exception {
        ImageReferences refs =
                new ImageReferences(
                        "1.2.0",
                        null,
                        Map.of(),
                        List.of(
                                new ImageReferences.Tag(
                                        "a",
                                        Map.of(ComponentVersions.VERSIONS, "kubernetes"),
                                        new ImageReferences.From("DockerImage", AGENT)),
                                new ImageReferences.Tag(
                                        "b",
                                        Map.of(ComponentVersions.VERSIONS, "etcd=3.5.1"),
                                        new ImageReferences.From("DockerImage", CLI)),
                                new ImageReferences.Tag(
                                        "c",
                                        Map.of(ComponentVersions.VERSIONS, "etcd=3.5.2"),
                                        new ImageReferences.From("DockerImage", HYPERKUBE))));
        ComponentVersions versions = ComponentVersions.of(refs);
        assertThat(versions.components())
                .containsExactly(Map.entry("etcd", new ComponentVersions.Component("3.5.1", "")));
        assertThat(versions.warnings())
                .containsExactly(
                        "multiple versions or display names reported for the following"
                                + " component(s): etcd",
                        "the referenced image a had an invalid version annotation: the version"
                                + " pair \"kubernetes\" must be NAME=VERSION");
    }

    @Test
    void commitsAreListedAsOcListsThem() {
        String shown = info(Instant.EPOCH).render(ReleaseInfo.Images.COMMITS);
        // Go's tabwriter, padding 1: the header's trailing tab makes a COMMIT column of its own;
        // a tag without annotations has empty cells; a tag not naming a DockerImage is left out
        assertThat(shown)
                .contains(
                        "\n\nImages:\n"
                                + "  NAME      REPO"
                                + " ".repeat(31)
                                + "COMMIT \n"
                                + "  agent     https://github.com/openshift/agent 0123abc\n"
                                + "  cli       "
                                + " ".repeat(35)
                                + "\n  hyperkube "
                                + " ".repeat(35)
                                + "\n\nBase Image: ")
                .doesNotContain("stream");
    }

    @Test
    void pullspecsAreListedAsOcListsThem() {
        String shown = info(Instant.EPOCH).render(ReleaseInfo.Images.PULLSPECS);
        assertThat(shown)
                .contains(
                        "\n\nImages:\n"
                                + "  NAME      PULL SPEC\n"
                                + "  agent     "
                                + AGENT
                                + "\n  cli       "
                                + CLI
                                + "\n  hyperkube "
                                + HYPERKUBE
                                + "\n\nBase Image: ");
    }
}
