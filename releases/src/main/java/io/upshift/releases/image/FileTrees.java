package io.upshift.releases.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing a file or a directory tree (links are removed, never followed). */
public final class FileTrees {

    private FileTrees() {}

    public static void delete(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    /**
     * Best effort, for temporary and partial files: the caller has a failure of its own to report,
     * or none.
     */
    public static void deleteQuietly(Path path) {
        try {
            delete(path);
        } catch (IOException ignored) {
            // nothing more to do
        }
    }
}
