package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.upshift.releases.image.Layers.Entry;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of generated images made of links, whiteouts, directories, files and hard links, each
 * extracted into a sandbox that holds files of its own around the target: whether the image is
 * refused or extracted, nothing outside the target changes, nothing of a refused image stays, and
 * every link an extracted image keeps resolves inside the target. The generator is seeded: a
 * failure names the seed and the layers, and the same seed makes the same images again.
 */
class ExtractionFuzzTest {

    private static final int CASES = 3000;
    private static final long SEED = 20261127L;

    /** Names appended to a path already in the image: through a link, a whiteout, a climb. */
    private static final List<String> SEGMENTS =
            List.of(
                    "d",
                    "e",
                    "victim",
                    "0000_10_a.yaml",
                    "release-manifests",
                    "manifests",
                    "..",
                    ".",
                    ".wh.d",
                    ".wh.victim",
                    ".wh..wh..opq",
                    ".wh.release-manifests");

    /** What a link's target ends with, after zero to five "..". */
    private static final List<String> TARGET_ENDS =
            List.of("", "release-manifests", "manifests", "d", "manifests/d");

    @TempDir Path dir;

    @Test
    void noGeneratedImageChangesAnythingOutsideItsTarget() throws Exception {
        Random random = new Random(SEED);
        Path sandbox = Files.createDirectories(dir.resolve("sandbox"));
        Path parent = Files.createDirectories(sandbox.resolve("a/b/c/t"));
        plantVictims(sandbox);
        Map<String, String> before = contents(sandbox, parent.resolve("target"));
        int extracted = 0, refused = 0;
        for (int n = 0; n < CASES; n++) {
            List<List<Entry>> image = image(random);
            Path target = parent.resolve("target");
            Path work = Files.createDirectories(dir.resolve("layers-" + n));
            List<Path> layers = new ArrayList<>();
            for (List<Entry> layer : image)
                layers.add(Files.write(work.resolve("l" + layers.size()), Layers.layer(layer)));
            boolean ok;
            try {
                SafeExtractor.extract(layers, target);
                ok = true;
                extracted++;
            } catch (ReleaseException e) {
                ok = false;
                refused++;
            }
            String what = "case " + n + " of seed " + SEED + ": " + image;
            assertThat(contents(sandbox, target)).as(what).isEqualTo(before);
            try (Stream<Path> left = Files.list(parent)) {
                assertThat(left.map(p -> p.getFileName().toString()))
                        .as("nothing but the target beside it, " + what)
                        .containsExactlyElementsOf(ok ? List.of("target") : List.of());
            }
            if (ok) {
                linksStayInside(target, what);
                FileTrees.delete(target);
            }
            FileTrees.delete(work);
        }
        assertThat(extracted)
                .as("the generator makes images that extract")
                .isGreaterThan(CASES / 20);
        assertThat(refused).as("and images that are refused").isGreaterThan(CASES / 20);
    }

    private static List<List<Entry>> image(Random random) {
        List<String> paths = new ArrayList<>(List.of("release-manifests", "manifests"));
        List<List<Entry>> layers = new ArrayList<>();
        layers.add(List.of(Entry.file("release-manifests/0000_10_a.yaml", "kind: A\n")));
        int count = 1 + random.nextInt(3);
        for (int l = 0; l < count; l++) {
            List<Entry> entries = new ArrayList<>();
            int size = 1 + random.nextInt(8);
            for (int i = 0; i < size; i++) entries.add(entry(random, paths));
            layers.add(entries);
        }
        return layers;
    }

    /**
     * An entry beneath a path the image already names (most often one a link of it made), so that
     * entries go through the links, climbs and whiteouts of those before them.
     */
    private static Entry entry(Random random, List<String> paths) {
        String base =
                random.nextInt(8) == 0
                        ? SEGMENTS.get(random.nextInt(SEGMENTS.size()))
                        : paths.get(random.nextInt(paths.size()));
        StringBuilder name = new StringBuilder(base);
        int depth = 1 + random.nextInt(3);
        for (int i = 0; i < depth; i++)
            name.append('/').append(SEGMENTS.get(random.nextInt(SEGMENTS.size())));
        String path = name.toString();
        paths.add(path);
        return switch (random.nextInt(6)) {
            case 0, 1 ->
                    Entry.symlink(
                            path,
                            "../".repeat(random.nextInt(5))
                                    + TARGET_ENDS.get(random.nextInt(TARGET_ENDS.size())));
            case 2 -> Entry.hardlink(path, "release-manifests/0000_10_a.yaml");
            case 3 -> Entry.directory(path);
            default -> Entry.file(path, "owned " + random.nextInt(1000) + "\n");
        };
    }

    /** At each level above the target: a file, a directory and payload-like directories. */
    private static void plantVictims(Path sandbox) throws IOException {
        for (String level : List.of("", "a/", "a/b/", "a/b/c/")) {
            Path at = sandbox.resolve(level);
            Files.writeString(at.resolve("victim"), "keep\n");
            for (String d : List.of("d", "release-manifests", "manifests")) {
                Files.createDirectories(at.resolve(d + "/d"));
                Files.writeString(at.resolve(d + "/victim"), "keep\n");
                Files.writeString(at.resolve(d + "/0000_10_a.yaml"), "keep\n");
            }
        }
    }

    /** Every path under {@code root} but {@code except}, with what it is: its bytes, its target. */
    private static Map<String, String> contents(Path root, Path except) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(p -> !p.startsWith(except)).toList()) {
                String key = root.relativize(p).toString();
                if (Files.isSymbolicLink(p)) out.put(key, "-> " + Files.readSymbolicLink(p));
                else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) out.put(key, "dir");
                else out.put(key, Files.readString(p));
            }
        }
        return out;
    }

    private static void linksStayInside(Path target, String what) throws IOException {
        Path real = target.toRealPath();
        try (Stream<Path> walk = Files.walk(target)) {
            for (Path p : walk.filter(Files::isSymbolicLink).toList()) {
                Path resolved = p.getParent().resolve(Files.readSymbolicLink(p)).normalize();
                if (Files.exists(p)) resolved = p.toRealPath();
                if (!resolved.startsWith(real))
                    fail(p + " leads to " + resolved + ", outside the target: " + what);
            }
        }
    }
}
