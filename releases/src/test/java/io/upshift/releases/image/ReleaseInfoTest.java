package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.releases.inclusion.InclusionRules;
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

/** What {@code upshift release info} prints: the Created line and oc's image listings. */
class ReleaseInfoTest {

    private static final String DIGEST = "sha256:" + "e".repeat(64);
    private static final String AGENT = "quay.example/agent@sha256:" + "a".repeat(64);
    private static final String CLI = "quay.example/cli@sha256:" + "b".repeat(64);

    @TempDir Path dir;
    private Payload payload;
    private ResolvedImage image;

    @BeforeEach
    void payload() throws Exception {
        Path p = PayloadDir.at(dir.resolve("p")).version("1.2.0").write();
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
                                ImageReferences.Tag.image("cli", CLI),
                                new ImageReferences.Tag(
                                        "stream",
                                        null,
                                        new ImageReferences.From("ImageStreamTag", "x:latest"))));
        Files.write(p.resolve("release-manifests/image-references"), refs.toJson());
        payload =
                PayloadLoader.load(
                        p, "r.example/release@" + DIGEST, InclusionRules.none(), w -> {});
        image =
                new ResolvedImage(
                        ImageRef.parse("r.example/release@" + DIGEST),
                        DIGEST,
                        new ImageDescriptor(ImageBuilder.CONFIG_MEDIA_TYPE, DIGEST, 1),
                        List.of());
    }

    @Test
    void theCreationTimeFollowsTheDigestAsOcPrintsIt() {
        String shown =
                new ReleaseInfo(image, payload, "", Instant.parse("2025-06-12T08:31:05.750Z"))
                        .render();
        assertThat(shown)
                .startsWith(
                        "Name:      1.2.0\nDigest:    "
                                + DIGEST
                                + "\nCreated:   2025-06-12T08:31:05Z\n")
                .contains("\nComponent Versions:\n  agent  " + AGENT + "\n  cli  " + CLI + "\n");
        // an image whose config has no time shows Go's zero time, as oc does
        assertThat(new ReleaseInfo(image, payload, "", null).render())
                .contains("\nCreated:   0001-01-01T00:00:00Z\n");
    }

    @Test
    void commitsAreListedAsOcListsThem() {
        String shown =
                new ReleaseInfo(image, payload, "", Instant.EPOCH)
                        .render(ReleaseInfo.Images.COMMITS);
        // Go's tabwriter, padding 1: the header's trailing tab makes a COMMIT column of its own;
        // a tag without annotations has empty cells; a tag not naming a DockerImage is left out
        assertThat(shown)
                .contains(
                        "\n\nImages:\n"
                                + "  NAME  REPO"
                                + " ".repeat(31)
                                + "COMMIT \n"
                                + "  agent https://github.com/openshift/agent 0123abc\n"
                                + "  cli   "
                                + " ".repeat(35)
                                + "\n\nManifests: ")
                .doesNotContain("Component Versions")
                .doesNotContain("stream");
    }

    @Test
    void pullspecsAreListedAsOcListsThem() {
        String shown =
                new ReleaseInfo(image, payload, "", Instant.EPOCH)
                        .render(ReleaseInfo.Images.PULLSPECS);
        assertThat(shown)
                .contains(
                        "\n\nImages:\n"
                                + "  NAME  PULL SPEC\n"
                                + "  agent "
                                + AGENT
                                + "\n  cli   "
                                + CLI
                                + "\n\nManifests: ");
    }
}
