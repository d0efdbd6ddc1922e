package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.releases.image.Layers.Entry;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Layers that try to write outside the target are refused whole: nothing outside, no target, no
 * staging left.
 */
class UnsafeLayerTest {

    @TempDir Path dir;

    private final Releases releases = new Releases(DockerCredentials.none(), false, w -> {});

    static Stream<List<Entry>> escapes() {
        Entry ok = Entry.file("release-manifests/0000_10_a_x.yaml", "kind: ConfigMap\n");
        return Stream.of(
                List.of(ok, Entry.file("release-manifests/../../evil", "owned")),
                List.of(ok, Entry.file("/release-manifests/evil-absolute", "owned")),
                List.of(ok, Entry.file("etc/../release-manifests/evil", "owned")),
                List.of(ok, Entry.symlink("release-manifests/abs-etc", "../etc/passwd")),
                List.of(
                        ok,
                        Entry.symlink("release-manifests/link", "../../../"),
                        Entry.file("release-manifests/link/evil", "owned")),
                List.of(ok, Entry.symlink("release-manifests/abs", "/etc")),
                List.of(ok, Entry.hardlink("release-manifests/hard", "../../etc/passwd")));
    }

    @ParameterizedTest
    @MethodSource("escapes")
    void anEscapingEntryRejectsTheWholeImage(List<Entry> entries) throws Exception {
        Path layout = dir.resolve("layout");
        new OciLayoutStore()
                .push(
                        Layers.image(
                                Layers.layer(entries),
                                Files.createDirectories(dir.resolve("work"))),
                        ImageRef.parse("oci:" + layout + ":bad"),
                        ImageStore.Progress.NONE);
        Path target = dir.resolve("a/b/target");
        assertThatThrownBy(
                        () ->
                                releases.extract(
                                        ImageRef.parse("oci:" + layout + ":bad"),
                                        target,
                                        ImageStore.Progress.NONE))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.UNSAFE_LAYER_ENTRY);
                            assertThat(e.getMessage())
                                    .startsWith("layer entry \"")
                                    .endsWith("; nothing was extracted");
                        });
        assertThat(target).doesNotExist();
        assertThat(dir.resolve("evil")).doesNotExist();
        assertThat(dir.resolve("a/evil")).doesNotExist();
        assertThat(dir.resolve("a"))
                .as("no staging directory, nor the parents made for the target, left behind")
                .doesNotExist();
    }

    @Test
    void aTamperedBlobIsRefusedByDigest() throws Exception {
        Path layout = dir.resolve("layout");
        BuiltImage image =
                Layers.image(
                        Layers.layer(List.of(Entry.file("release-manifests/a.yaml", "x: 1\n"))),
                        Files.createDirectories(dir.resolve("w")));
        new OciLayoutStore()
                .push(image, ImageRef.parse("oci:" + layout + ":t"), ImageStore.Progress.NONE);
        Path blob =
                layout.resolve("blobs/sha256")
                        .resolve(image.layerDescriptor().digest().substring(7));
        byte[] bytes = Files.readAllBytes(blob);
        bytes[bytes.length / 2] ^= 1;
        Files.write(blob, bytes);
        assertThatThrownBy(
                        () ->
                                releases.extract(
                                        ImageRef.parse("oci:" + layout + ":t"),
                                        dir.resolve("t"),
                                        ImageStore.Progress.NONE))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.BLOB_DIGEST_MISMATCH));
        assertThat(dir.resolve("t")).doesNotExist();
    }

    @Test
    void aLinkInsideThePayloadIsKept() throws Exception {
        Path layout = dir.resolve("layout");
        new OciLayoutStore()
                .push(
                        Layers.image(
                                Layers.layer(
                                        List.of(
                                                Entry.file("release-manifests/a.yaml", "x: 1\n"),
                                                Entry.symlink("release-manifests/b.yaml", "a.yaml"),
                                                Entry.file("usr/bin/operator", "binary"))),
                                Files.createDirectories(dir.resolve("w"))),
                        ImageRef.parse("oci:" + layout),
                        ImageStore.Progress.NONE);
        Path target = dir.resolve("t");
        releases.extract(ImageRef.parse("oci:" + layout), target, ImageStore.Progress.NONE);
        assertThat(Files.readString(target.resolve("release-manifests/b.yaml")))
                .isEqualTo("x: 1\n");
        assertThat(target.resolve("usr")).as("only the payload is unpacked").doesNotExist();
    }
}
