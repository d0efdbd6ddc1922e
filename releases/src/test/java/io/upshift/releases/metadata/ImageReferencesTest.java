package io.upshift.releases.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ImageReferencesTest {

    private static final Path FIXTURE =
            Path.of(
                    System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                    "openshift-payload-4.19",
                    "release-manifests",
                    "image-references");

    @Test
    void writtenAsOcAdmReleaseNewWritesIt() {
        ImageReferences refs =
                new ImageReferences(
                        "4.19.1",
                        Instant.parse("2025-06-20T10:11:12Z"),
                        Map.of("release.openshift.io/from-release", "quay.example/r:4.19.0"),
                        List.of(
                                new ImageReferences.Tag(
                                        "cli",
                                        Map.of(
                                                ImageReferences.SOURCE_LOCATION,
                                                "https://github.com/openshift/oc",
                                                ImageReferences.COMMIT_ID,
                                                "abc123",
                                                "note",
                                                "a<b & c>d"),
                                        new ImageReferences.From(
                                                "DockerImage", "quay.example/cli@sha256:bb")),
                                ImageReferences.Tag.image("agent", "quay.example/agent@sha256:aa"),
                                new ImageReferences.Tag("empty", Map.of(), null)));
        // tags sorted by name; a nil map is null, an empty one {}; no from when it names none;
        // Go escapes <, > and &; no trailing newline
        assertThat(new String(refs.toJson(), StandardCharsets.UTF_8))
                .isEqualTo(
                        """
                        {
                          "kind": "ImageStream",
                          "apiVersion": "image.openshift.io/v1",
                          "metadata": {
                            "name": "4.19.1",
                            "creationTimestamp": "2025-06-20T10:11:12Z",
                            "annotations": {
                              "release.openshift.io/from-release": "quay.example/r:4.19.0"
                            }
                          },
                          "spec": {
                            "lookupPolicy": {
                              "local": false
                            },
                            "tags": [
                              {
                                "name": "agent",
                                "annotations": null,
                                "from": {
                                  "kind": "DockerImage",
                                  "name": "quay.example/agent@sha256:aa"
                                },
                                "generation": null,
                                "importPolicy": {},
                                "referencePolicy": {
                                  "type": ""
                                }
                              },
                              {
                                "name": "cli",
                                "annotations": {
                                  "io.openshift.build.commit.id": "abc123",
                                  "io.openshift.build.source-location": "https://github.com/openshift/oc",
                                  "note": "a\\u003cb \\u0026 c\\u003ed"
                                },
                                "from": {
                                  "kind": "DockerImage",
                                  "name": "quay.example/cli@sha256:bb"
                                },
                                "generation": null,
                                "importPolicy": {},
                                "referencePolicy": {
                                  "type": ""
                                }
                              },
                              {
                                "name": "empty",
                                "annotations": {},
                                "generation": null,
                                "importPolicy": {},
                                "referencePolicy": {
                                  "type": ""
                                }
                              }
                            ]
                          },
                          "status": {
                            "dockerImageRepository": ""
                          }
                        }\
                        """);
    }

    @Test
    void withoutTagsOrTimeTheFieldsGoOmitsAreOmittedAndTheZeroTimeIsNull() {
        assertThat(new String(new ImageReferences("1.0.0", Map.of()).toJson(), UTF8))
                .isEqualTo(
                        """
                        {
                          "kind": "ImageStream",
                          "apiVersion": "image.openshift.io/v1",
                          "metadata": {
                            "name": "1.0.0",
                            "creationTimestamp": null
                          },
                          "spec": {
                            "lookupPolicy": {
                              "local": false
                            }
                          },
                          "status": {
                            "dockerImageRepository": ""
                          }
                        }\
                        """);
    }

    @Test
    void whatIsWrittenReadsBackTheSame() throws ReleaseException {
        ImageReferences refs =
                new ImageReferences(
                        "2.0.0",
                        Instant.parse("2026-01-02T03:04:05Z"),
                        Map.of(),
                        List.of(
                                ImageReferences.Tag.image("a", "r.example/a@sha256:aa"),
                                new ImageReferences.Tag(
                                        "b",
                                        Map.of(ImageReferences.COMMIT_ID, "c0ffee"),
                                        new ImageReferences.From(
                                                "DockerImage", "r.example/b@sha256:bb"))));
        ImageReferences read = ImageReferences.parse(refs.toJson(), "image-references");
        assertThat(read).isEqualTo(refs);
        assertThat(read.images())
                .containsExactly(
                        Map.entry("a", "r.example/a@sha256:aa"),
                        Map.entry("b", "r.example/b@sha256:bb"));
        assertThat(read.tags().get(1).annotation(ImageReferences.COMMIT_ID)).isEqualTo("c0ffee");
        assertThat(read.tags().get(0).annotation(ImageReferences.COMMIT_ID)).isEmpty();
    }

    @Test
    void theYamlOfOlderUpshiftReleasesIsStillRead() throws ReleaseException {
        // what Upshift wrote before it wrote oc's JSON: a YAML document, quoted keys
        String yaml =
                "---\n"
                        + "kind: \"ImageStream\"\n"
                        + "apiVersion: \"image.openshift.io/v1\"\n"
                        + "metadata:\n"
                        + "  name: \"4.18.2\"\n"
                        + "  creationTimestamp: \"2026-11-01T00:00:00Z\"\n"
                        + "spec:\n"
                        + "  tags:\n"
                        + "  - name: \"cli\"\n"
                        + "    from:\n"
                        + "      kind: \"DockerImage\"\n"
                        + "      name: \"quay.example/cli@sha256:aa\"\n"
                        + "  - name: \"not-an-image\"\n"
                        + "    from:\n"
                        + "      kind: \"ImageStreamTag\"\n"
                        + "      name: \"cli:latest\"\n";
        ImageReferences refs = ImageReferences.parse(yaml.getBytes(UTF8), "image-references");
        assertThat(refs.name()).isEqualTo("4.18.2");
        assertThat(refs.created()).isEqualTo(Instant.parse("2026-11-01T00:00:00Z"));
        assertThat(refs.images()).isEqualTo(Map.of("cli", "quay.example/cli@sha256:aa"));
        assertThat(refs.tags()).hasSize(2);
        assertThat(refs.tags().get(0).annotations()).isNull();
    }

    @Test
    void withoutOrWithAnUnreadableTimeThereIsNone() throws ReleaseException {
        String without =
                "kind: ImageStream\napiVersion: image.openshift.io/v1\nmetadata:\n  name: 4.18.2\n";
        assertThat(ImageReferences.parse(without.getBytes(UTF8), "x").created()).isNull();
        String unreadable = without + "  creationTimestamp: yesterday\n";
        assertThat(ImageReferences.parse(unreadable.getBytes(UTF8), "x").created()).isNull();
    }

    @Test
    void annotationsThatAreNotStringsAreRefusedNamingTheField() {
        String bad =
                "{\"kind\":\"ImageStream\",\"apiVersion\":\"image.openshift.io/v1\","
                        + "\"metadata\":{\"name\":\"1.0.0\"},\"spec\":{\"tags\":"
                        + "[{\"name\":\"a\",\"annotations\":{\"x\":{\"y\":1}}}]}}";
        assertThatThrownBy(() -> ImageReferences.parse(bad.getBytes(UTF8), "image-references"))
                .isInstanceOf(ReleaseException.class)
                .hasMessage("image-references: spec.tags[0].annotations.x must be a string");
    }

    @Test
    void anOpenShiftPayloadsFileIsWrittenBackByteForByte() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(FIXTURE), "shared fixtures not present");
        byte[] original = Files.readAllBytes(FIXTURE);
        ImageReferences refs = ImageReferences.parse(original, "image-references");
        assertThat(refs.images().size()).isEqualTo(refs.tags().size()).isGreaterThan(50);
        assertThat(new String(refs.toJson(), UTF8)).isEqualTo(new String(original, UTF8));
    }

    private static final Charset UTF8 = StandardCharsets.UTF_8;
}
