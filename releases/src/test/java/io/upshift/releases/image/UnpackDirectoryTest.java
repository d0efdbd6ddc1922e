package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.testkit.RawImages;
import io.upshift.testkit.RawImages.Entry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

    @Test
    void imagesUnpackedAtTheSameTimeOverTheSameBaseAllGetTheirFiles() throws Exception {
        List<Entry> files = new ArrayList<>(List.of(Entry.file("opt/upshift/upshift.jar", "jar")));
        for (int i = 0; i < 2000; i++) // long enough to unpack that the unpacks overlap
        files.add(Entry.file("opt/upshift/lib/f" + i, "" + i));
        byte[] base = RawImages.layer(files);
        Path layers = dir.resolve("layers");
        List<String> images = new ArrayList<>();
        for (int i = 0; i < 8; i++)
            images.add(
                    image(
                            "i" + i,
                            base,
                            RawImages.layer(List.of(Entry.file("opt/upshift/v", "" + i)))));
        ExecutorService pool = Executors.newFixedThreadPool(images.size());
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < images.size(); i++) {
                String ref = images.get(i);
                Path target = dir.resolve("t" + i);
                done.add(
                        pool.submit(
                                () -> {
                                    go.await();
                                    return releases.unpackDirectory(
                                            ImageRef.parse(ref), "opt/upshift", target, layers);
                                }));
            }
            go.countDown();
            for (Future<?> f : done) f.get(1, TimeUnit.MINUTES); // none refused
        } finally {
            pool.shutdownNow();
        }
        for (int i = 0; i < images.size(); i++) {
            assertThat(Files.readString(dir.resolve("t" + i + "/upshift.jar"))).isEqualTo("jar");
            assertThat(Files.readString(dir.resolve("t" + i + "/v"))).isEqualTo("" + i);
        }
        try (Stream<Path> kept = Files.list(layers.resolve("opt_upshift"))) {
            assertThat(kept.map(p -> p.getFileName().toString()))
                    .as("one directory per layer, nothing partial left")
                    .hasSize(images.size() + 1)
                    .allMatch(n -> n.startsWith("sha256-"));
        }
    }
}
