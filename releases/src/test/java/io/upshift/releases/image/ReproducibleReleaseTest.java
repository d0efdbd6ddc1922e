package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.metadata.ReleaseMetadata;
import io.upshift.releases.payload.PayloadDir;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A release image's time is chosen from its inputs and is everywhere oc puts it (the config's
 * {@code created} and history, the ImageStream, the payload layer's entries), so the same inputs
 * make the same digest.
 */
class ReproducibleReleaseTest {

    private static final Instant STREAM_TIME = Instant.parse("2025-06-12T08:31:05Z");

    @TempDir Path dir;

    @Test
    void theSamePayloadMakesTheSameDigestWhereverItLies() throws Exception {
        Path a = payload(dir.resolve("a"), null);
        Path b = payload(dir.resolve("b"), null);
        Instant newest = Instant.parse("2024-03-04T05:06:07.890Z");
        touchAll(a, newest.minusSeconds(60));
        touchAll(b, newest.minusSeconds(60));
        Files.setLastModifiedTime(
                a.resolve("release-manifests/0000_50_a_cm.yaml"), FileTime.from(newest));
        Files.setLastModifiedTime(
                b.resolve("release-manifests/0000_50_a_cm.yaml"), FileTime.from(newest));

        BuiltImage first = build(a, null), again = build(a, null), elsewhere = build(b, null);
        assertThat(again.digest()).isEqualTo(first.digest());
        assertThat(elsewhere.digest()).isEqualTo(first.digest());
        // without a recorded time, the newest file's, in whole seconds
        assertThat(config(first).path("created").asText()).isEqualTo("2024-03-04T05:06:07Z");
    }

    @Test
    void theImageStreamsRecordedTimeIsTheReleasesAndEverythingCarriesIt() throws Exception {
        Path p = payload(dir.resolve("p"), STREAM_TIME);
        touchAll(p, Instant.parse("2030-01-01T00:00:00Z")); // file times do not count then
        BuiltImage image = build(p, null);

        JsonNode config = config(image);
        assertThat(config.path("created").asText()).isEqualTo("2025-06-12T08:31:05Z");
        assertThat(config.path("history")).hasSize(1);
        assertThat(config.at("/history/0/created").asText()).isEqualTo("2025-06-12T08:31:05Z");
        assertThat(config.at("/history/0/comment").asText())
                .isEqualTo("Release image for OpenShift");

        Map<String, TarArchiveEntry> entries = new LinkedHashMap<>();
        Map<String, byte[]> files = new LinkedHashMap<>();
        readLayer(image.layer(), entries, files);
        assertThat(entries.values())
                .allSatisfy(e -> assertThat(e.getModTime().toInstant()).isEqualTo(STREAM_TIME));

        ImageReferences refs =
                ImageReferences.parse(
                        files.get("release-manifests/image-references"), "image-references");
        assertThat(refs.name()).isEqualTo("1.2.0");
        assertThat(refs.created()).isEqualTo(STREAM_TIME);
        assertThat(files.get("release-manifests/image-references")).isEqualTo(refs.toJson());
        ReleaseMetadata metadata =
                ReleaseMetadata.parse(
                        files.get("release-manifests/release-metadata"), "release-metadata");
        assertThat(files.get("release-manifests/release-metadata")).isEqualTo(metadata.toJson());
    }

    /**
     * The payload layer as oc lays out its own: under {@code release-manifests/} only files, which
     * oc reads as manifests and metadata (an entry named {@code release-manifests/} or a whiteout
     * inside would be a "Metadata files" count oc does not print for its own); each directory
     * sealed by a whiteout of it at the top of the layer, before its entries.
     */
    @Test
    void theLayerHoldsUnderReleaseManifestsOnlyFilesAndIsSealedFromAbove() throws Exception {
        BuiltImage image = build(payload(dir.resolve("p"), STREAM_TIME), null);
        Map<String, TarArchiveEntry> entries = new LinkedHashMap<>();
        readLayer(image.layer(), entries, new LinkedHashMap<>());
        // (the directories are written without a trailing slash, as Go's tar writer writes oc's;
        // commons-compress reads a directory's name with one: OcReadsReleaseTest runs oc on it)
        List<String> names = List.copyOf(entries.keySet());
        assertThat(names.subList(0, 2)).containsExactly(".wh.manifests", "manifests/");
        assertThat(names.indexOf(".wh.release-manifests"))
                .isNotNegative()
                .isEqualTo(names.indexOf("release-manifests/") - 1);
        assertThat(entries.get("manifests/").isDirectory()).isTrue();
        assertThat(entries.get("release-manifests/").isDirectory()).isTrue();
        assertThat(names)
                .filteredOn(
                        n -> n.startsWith("release-manifests/") && !n.equals("release-manifests/"))
                .isNotEmpty()
                .allSatisfy(
                        n -> {
                            assertThat(entries.get(n).isFile()).as(n).isTrue();
                            assertThat(n).doesNotContain(".wh.");
                        });
        assertThat(SafeExtractor.sealedDirs(image.layer()))
                .containsExactlyInAnyOrder("manifests", "release-manifests");
    }

    @Test
    void aTimeGivenIsTheReleasesAndChangesTheDigest() throws Exception {
        Path p = payload(dir.resolve("p"), STREAM_TIME);
        Instant given = Instant.parse("2026-02-03T04:05:06Z");
        BuiltImage recorded = build(p, null), dated = build(p, given);
        assertThat(dated.digest()).isNotEqualTo(recorded.digest());
        assertThat(build(p, given).digest()).isEqualTo(dated.digest());
        assertThat(config(dated).path("created").asText()).isEqualTo("2026-02-03T04:05:06Z");
        Map<String, byte[]> files = new LinkedHashMap<>();
        readLayer(dated.layer(), new LinkedHashMap<>(), files);
        assertThat(
                        ImageReferences.parse(files.get("release-manifests/image-references"), "x")
                                .created())
                .isEqualTo(given);
    }

    @Test
    void onABaseTheHistoryHasAnEntryPerLayerAndOcsBaseDigestLabel() throws Exception {
        Path p = payload(dir.resolve("p"), STREAM_TIME);
        String baseDigest = "sha256:" + "d".repeat(64);
        byte[] baseConfig =
                ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"created\":\"1970-01-01T00:00:00Z\","
                     + "\"history\":[{\"created_by\":\"jib\"}],"
                     + "\"config\":{\"Labels\":{\"x\":\"y\"}},"
                     + "\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"sha256:"
                                + "1".repeat(64)
                                + "\",\"sha256:"
                                + "2".repeat(64)
                                + "\"]}}")
                        .getBytes(StandardCharsets.UTF_8);
        List<BuiltImage.LayerFile> layers =
                List.of(fakeLayer("1"), fakeLayer("2")); // only their descriptors are used
        BuiltImage image =
                ImageBuilder.build(
                        p,
                        "1.2.0",
                        null,
                        null,
                        new ImageBuilder.Base(
                                "registry.example/base@" + baseDigest, baseConfig, layers),
                        Files.createDirectories(dir.resolve("work-base")),
                        w -> {});
        JsonNode config = config(image);
        assertThat(config.path("created").asText()).isEqualTo("2025-06-12T08:31:05Z");
        assertThat(config.path("history")).hasSize(3);
        assertThat(config.at("/history/0/comment").asText())
                .isEqualTo("Release image for OpenShift");
        for (JsonNode h : config.path("history"))
            assertThat(h.path("created").asText()).isEqualTo("2025-06-12T08:31:05Z");
        assertThat(config.at("/history/1").has("comment")).isFalse();
        assertThat(config.at("/config/Labels/io.openshift.release.base-image-digest").asText())
                .isEqualTo(baseDigest);
        assertThat(config.at("/config/Labels/x").asText()).isEqualTo("y");
    }

    @Test
    void aTimeBefore1970IsRefused() throws Exception {
        Path p = payload(dir.resolve("p"), null);
        assertThatThrownBy(() -> build(p, Instant.parse("1969-12-31T23:59:59Z")))
                .isInstanceOf(ReleaseException.class)
                .hasMessageContaining("before 1970");
    }

    private BuiltImage build(Path payload, Instant created) throws Exception {
        return ImageBuilder.build(
                payload,
                "1.2.0",
                List.of("1.1.0"),
                created,
                null,
                Files.createTempDirectory(dir, "work-"),
                w -> {});
    }

    /** A payload whose image-references records {@code created} (none when null). */
    private static Path payload(Path root, Instant created) throws IOException {
        Path p =
                PayloadDir.at(root)
                        .version("1.2.0")
                        .image("cli", "registry.example/cli@sha256:" + "a".repeat(64))
                        .configMap("0000_50_a_cm.yaml", "a")
                        .write();
        if (created != null) {
            Path refs = p.resolve("release-manifests/image-references");
            Files.writeString(
                    refs,
                    Files.readString(refs)
                            .replace(
                                    "  name: 1.2.0\n",
                                    "  name: 1.2.0\n  creationTimestamp: \"" + created + "\"\n"));
        }
        return p;
    }

    private static void touchAll(Path root, Instant time) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path f : walk.filter(Files::isRegularFile).toList())
                Files.setLastModifiedTime(f, FileTime.from(time));
        }
    }

    private static JsonNode config(BuiltImage image) throws IOException {
        return Mappers.JSON.readTree(image.config());
    }

    private static BuiltImage.LayerFile fakeLayer(String hex) {
        return new BuiltImage.LayerFile(
                Path.of("unused"),
                new ImageDescriptor(ImageBuilder.LAYER_MEDIA_TYPE, "sha256:" + hex.repeat(64), 10),
                "sha256:" + hex.repeat(64));
    }

    private static void readLayer(
            Path layer, Map<String, TarArchiveEntry> entries, Map<String, byte[]> files)
            throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(layer));
                TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(in))) {
            for (TarArchiveEntry e; (e = tar.getNextEntry()) != null; ) {
                entries.put(e.getName(), e);
                if (e.isFile()) files.put(e.getName(), tar.readAllBytes());
            }
        }
    }
}
