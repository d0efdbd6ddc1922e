package io.upshift.pools.templates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SubstitutionTest {
    static final Map<String, String> FIELDS =
            Map.of(
                    ".OSImageURL",
                    "quay.example/os@sha256:1",
                    ".Proxy.HTTPProxy",
                    "http://proxy:3128");

    @Test
    void replacesFieldsWithOrWithoutSpacesAndLeavesOtherTextAlone() {
        assertThat(
                        Substitution.render(
                                "t",
                                "image={{.OSImageURL}} proxy={{ .Proxy.HTTPProxy }} } {x}",
                                FIELDS))
                .isEqualTo("image=quay.example/os@sha256:1 proxy=http://proxy:3128 } {x}");
        assertThat(Substitution.render("t", "no actions", FIELDS)).isEqualTo("no actions");
    }

    @Test
    void anUnknownFieldNamesTheTemplateTheLineAndTheField() {
        assertThatThrownBy(
                        () ->
                                Substitution.render(
                                        "worker.00-worker._base.files.a.yaml",
                                        "path: /a\ncontents: {{.OSImageUrl}}",
                                        FIELDS))
                .isInstanceOf(TemplateException.class)
                .hasMessage(
                        "template worker.00-worker._base.files.a.yaml: line 2: unknown field"
                                + " .OSImageUrl");
    }

    @Test
    void goTemplateActionsBeyondFieldsAreRefusedByName() {
        for (String action :
                new String[] {
                    "{{if .Proxy}}",
                    "{{- .OSImageURL}}",
                    "{{.OSImageURL | quote}}",
                    "{{range .TLSCipherSuites}}",
                    "{{/* c */}}"
                }) {
            assertThatThrownBy(() -> Substitution.render("t", "x\n" + action, FIELDS))
                    .as(action)
                    .hasMessage(
                            "template t: line 2: unsupported action "
                                    + action
                                    + ": only field substitutions such as {{.OSImageURL}} are"
                                    + " supported");
        }
        assertThatThrownBy(() -> Substitution.render("t", "a {{.OSImageURL", FIELDS))
                .hasMessage("template t: line 1: \"{{\" is not closed");
    }
}
