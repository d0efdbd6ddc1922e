package io.upshift.releases.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ReleaseMetadataTest {

    private static final Path FIXTURE =
            Path.of(
                    System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                    "openshift-payload-4.19",
                    "release-manifests",
                    "release-metadata");

    @Test
    void emptyPreviousIsAnEmptyListAndEmptyNextAndMetadataAreLeftOut() {
        assertThat(json(new ReleaseMetadata("1.0.0", List.of(), List.of(), Map.of())))
                .isEqualTo(
                        """
                        {
                          "kind": "cincinnati-metadata-v0",
                          "version": "1.0.0",
                          "previous": []
                        }\
                        """);
    }

    @Test
    void versionsAndKeysAreSortedAsOcSortsThemAndHtmlCharactersEscaped() {
        ReleaseMetadata m =
                new ReleaseMetadata(
                        "4.19.2",
                        List.of("4.19.1", "4.18.9", "4.19.0-rc.1", "4.18.10"),
                        List.of("4.19.3"),
                        Map.of(
                                "url",
                                "https://errata.example/?a=1&b=<2>",
                                ReleaseMetadata.CHANNELS,
                                "stable-4.19,fast-4.19"));
        // sorted as strings, as oc's sort.Strings: 4.18.10 before 4.18.9
        assertThat(json(m))
                .isEqualTo(
                        """
                        {
                          "kind": "cincinnati-metadata-v0",
                          "version": "4.19.2",
                          "previous": [
                            "4.18.10",
                            "4.18.9",
                            "4.19.0-rc.1",
                            "4.19.1"
                          ],
                          "next": [
                            "4.19.3"
                          ],
                          "metadata": {
                            "io.openshift.upgrades.graph.release.channels": "stable-4.19,fast-4.19",
                            "url": "https://errata.example/?a=1\\u0026b=\\u003c2\\u003e"
                          }
                        }\
                        """);
    }

    @Test
    void whatIsWrittenReadsBackTheSame() throws ReleaseException {
        ReleaseMetadata m =
                new ReleaseMetadata(
                        "2.0.0",
                        List.of("1.0.0", "1.1.0"),
                        List.of(),
                        Map.of("url", "https://example/<x>"));
        assertThat(ReleaseMetadata.parse(m.toJson(), "release-metadata")).isEqualTo(m);
    }

    @Test
    void anOpenShiftPayloadsFileIsWrittenBackByteForByte() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(FIXTURE), "shared fixtures not present");
        byte[] original = Files.readAllBytes(FIXTURE);
        assertThat(json(ReleaseMetadata.parse(original, "release-metadata")))
                .isEqualTo(new String(original, StandardCharsets.UTF_8));
    }

    private static String json(ReleaseMetadata m) {
        return new String(m.toJson(), StandardCharsets.UTF_8);
    }
}
