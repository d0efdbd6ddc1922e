package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.testkit.RawImages;
import io.upshift.testkit.RawImages.Entry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnpackDirectoryTest {

    @TempDir Path dir;

    private final Releases releases = new Releases(DockerCredentials.none(), false, w -> {});

    /** An image of {@code layers} in an OCI layout of its own. */
    private String image(String name, byte[]... layers) throws Exception {
        Path layout = dir.resolve(name);
        return "oci:"
                + layout
                + "@"
                + RawImages.layout(layout, name, "amd64", List.of(layers)).digest();
    }

    @Test
    void twoImagesOnTheSameBaseShareItsUnpackedLayerAndEachGetsItsOwnFilesOnTop() throws Exception {
        byte[] base =
                RawImages.layer(
                        List.of(
                                Entry.file("opt/upshift/upshift.jar", "jar 1"),
                                Entry.file("opt/upshift/lib/a.jar", "a"),
                                Entry.file("etc/passwd", "root")));
        byte[] one = RawImages.layer(List.of(Entry.file("release-manifests/v", "1")));
        byte[] two =
                RawImages.layer(
                        List.of(
                                Entry.file("release-manifests/v", "2"),
                                Entry.file("opt/upshift/upshift.jar", "jar 2")));
        String first = image("one", base, one);
        String second = image("two", base, two);
        Path layers = dir.resolve("layers");

        Path a = dir.resolve("a");
        releases.unpackDirectory(ImageRef.parse(first), "opt/upshift", a, layers);
        Path b = dir.resolve("b");
        releases.unpackDirectory(ImageRef.parse(second), "opt/upshift", b, layers);

        assertThat(Files.readString(a.resolve("upshift.jar"))).isEqualTo("jar 1");
        assertThat(Files.readString(a.resolve("lib/a.jar"))).isEqualTo("a");
        assertThat(Files.exists(a.resolve("etc/passwd"))).isFalse();
        assertThat(Files.readString(b.resolve("upshift.jar")))
                .as("the upper layer's")
                .isEqualTo("jar 2");
        assertThat(Files.readString(b.resolve("lib/a.jar"))).isEqualTo("a");
        assertThat(Files.isSameFile(a.resolve("lib/a.jar"), b.resolve("lib/a.jar")))
                .as("the base layer unpacked once")
                .isTrue();
        try (Stream<Path> kept = Files.list(layers.resolve("opt_upshift"))) {
            assertThat(kept.map(p -> p.getFileName().toString()))
                    .as("one directory per layer, nothing partial left")
                    .hasSize(3)
                    .allMatch(n -> n.startsWith("sha256-"));
        }
        // the same files as without the layers kept
        Path whole = dir.resolve("whole");
        releases.unpackDirectory(ImageRef.parse(second), "opt/upshift", whole);
        assertThat(Files.readString(whole.resolve("upshift.jar"))).isEqualTo("jar 2");
        assertThat(Files.readString(whole.resolve("lib/a.jar"))).isEqualTo("a");
    }
}
