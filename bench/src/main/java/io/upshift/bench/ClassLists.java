package io.upshift.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Class lists ({@code -XX:DumpLoadedClassList}) of several processes made into one for a static
 * class-data archive.
 */
final class ClassLists {
    private ClassLists() {}

    /**
     * Appends to {@code out} each class of {@code lists} once, in order, and each other line
     * ({@code @lambda-proxy}, {@code @cp}, ...) once. Left out: comments and the classes of other
     * loaders (their {@code source:} names the training's own files). The ids are numbered anew:
     * each process numbers its classes from 0, and the archive's dump refuses an id given twice.
     */
    static void merge(List<Path> lists, List<String> out) throws IOException {
        Set<String> seen = new HashSet<>();
        int id = 0;
        for (Path list : lists) {
            for (String line : Files.readAllLines(list)) {
                if (line.isBlank() || line.startsWith("#") || line.contains(" source: ")) continue;
                int at = line.indexOf(" id: ");
                if (!line.startsWith("@") && at > 0) {
                    if (seen.add(line.substring(0, at)))
                        out.add(line.substring(0, at) + " id: " + id++);
                } else if (seen.add(line)) out.add(line);
            }
        }
    }
}
