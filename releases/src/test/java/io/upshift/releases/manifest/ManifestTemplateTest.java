package io.upshift.releases.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestTemplateTest {

    private final ManifestTemplate template =
            new ManifestTemplate(
                    "registry.example/release@sha256:abc",
                    "single-node-developer",
                    Map.of("cli", "registry.example/cli@sha256:def"));

    @Test
    void stringConstantsWriteTheBracesOfTemplatesTheyCarry() throws Exception {
        // as an alert rule in a payload writes a Prometheus template the operator must not fill
        // itself
        String text =
                "summary: not retrieved in {{ \"{{ $value | humanizeDuration }}\" }}.\n"
                    + "description: {{ \"{{ with $u := \\\"console_url\\\" | query }}{{ . }}{{ end"
                    + " }}\" }} and {{`raw {{ x }}`}}\n";
        assertThat(template.render(text))
                .isEqualTo(
                        "summary: not retrieved in {{ $value | humanizeDuration }}.\n"
                            + "description: {{ with $u := \"console_url\" | query }}{{ . }}{{ end"
                            + " }} and raw {{ x }}\n");
    }

    @Test
    void fieldsImagesCommentsAndTrimming() throws Exception {
        assertThat(
                        template.render(
                                "image: '{{.ReleaseImage}}'\n"
                                        + "profile: {{ .ClusterProfile }}\n"
                                        + "cli: {{ index .Images \"cli\" }}{{/* why */}}\n"
                                        + "a: x   {{- \" y\" -}}   \n"))
                .isEqualTo(
                        "image: 'registry.example/release@sha256:abc'\n"
                                + "profile: single-node-developer\n"
                                + "cli: registry.example/cli@sha256:def\n"
                                + "a: x y");
    }

    @Test
    void anUnknownFieldOrAnUnclosedActionIsNamed() {
        assertThatThrownBy(() -> template.render("a: {{ .Architecture }}"))
                .hasMessage("unknown template field {{.Architecture}}");
        assertThatThrownBy(() -> template.render("a: {{ \"}}\" "))
                .hasMessageStartingWith("unclosed action {{");
    }
}
