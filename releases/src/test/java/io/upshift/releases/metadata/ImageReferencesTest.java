package io.upshift.releases.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ImageReferencesTest {

    @Test
    void theCreationTimestampIsReadAndWrittenBack() throws ReleaseException {
        String yaml =
                "kind: ImageStream\n"
                        + "apiVersion: image.openshift.io/v1\n"
                        + "metadata:\n"
                        + "  name: 4.18.2\n"
                        + "  creationTimestamp: \"2026-11-01T00:00:00Z\"\n"
                        + "spec:\n"
                        + "  tags:\n"
                        + "  - name: cli\n"
                        + "    from:\n"
                        + "      kind: DockerImage\n"
                        + "      name: quay.example/cli@sha256:aa\n";
        ImageReferences refs =
                ImageReferences.parse(yaml.getBytes(StandardCharsets.UTF_8), "image-references");
        assertThat(refs.created()).isEqualTo(Instant.parse("2026-11-01T00:00:00Z"));
        assertThat(refs.images()).isEqualTo(Map.of("cli", "quay.example/cli@sha256:aa"));
        assertThat(ImageReferences.parse(refs.toYaml(), "again")).isEqualTo(refs);
    }

    @Test
    void withoutOrWithAnUnreadableTimeThereIsNone() throws ReleaseException {
        String without =
                "kind: ImageStream\napiVersion: image.openshift.io/v1\nmetadata:\n  name: 4.18.2\n";
        assertThat(ImageReferences.parse(without.getBytes(StandardCharsets.UTF_8), "x").created())
                .isNull();
        String unreadable = without + "  creationTimestamp: yesterday\n";
        assertThat(
                        ImageReferences.parse(unreadable.getBytes(StandardCharsets.UTF_8), "x")
                                .created())
                .isNull();
        assertThat(
                        new String(
                                new ImageReferences("4.18.2", Map.of()).toYaml(),
                                StandardCharsets.UTF_8))
                .doesNotContain("creationTimestamp");
    }
}
