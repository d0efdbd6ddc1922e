package io.upshift.releases.image;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * A reproducible image layer: entries sorted by path, owned by root, their times at the epoch, gzip
 * without a name or time; the same entries make the same bytes, hence the same digest. Parents are
 * added as directories.
 */
final class TarLayer {

    /**
     * One entry: a file copied from {@code source}, a file of {@code content}, a directory, or a
     * symbolic link.
     */
    record Entry(String path, Path source, byte[] content, String link, int mode) {
        static Entry file(String path, Path source, int mode) {
            return new Entry(path, source, null, null, mode);
        }

        static Entry file(String path, byte[] content, int mode) {
            return new Entry(path, null, content, null, mode);
        }

        static Entry directory(String path, int mode) {
            return new Entry(path, null, null, null, mode);
        }

        static Entry symlink(String path, String target) {
            return new Entry(path, null, null, target, 0777);
        }

        boolean isDirectory() {
            return source == null && content == null && link == null;
        }
    }

    private final TreeMap<String, Entry> entries = new TreeMap<>();

    TarLayer add(Entry e) {
        String path = e.path().replaceAll("^/+", "").replaceAll("/+$", "");
        for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
            entries.putIfAbsent(
                    path.substring(0, slash), Entry.directory(path.substring(0, slash), 0755));
        }
        entries.put(path, new Entry(path, e.source(), e.content(), e.link(), e.mode()));
        return this;
    }

    /**
     * Adds the tree under {@code dir} at {@code at}: files keep their executable bit, links stay
     * links.
     */
    TarLayer addTree(Path dir, String at) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.sorted().toList();
        }
        for (Path p : paths) {
            String name =
                    at
                            + (p.equals(dir)
                                    ? ""
                                    : "/" + dir.relativize(p).toString().replace('\\', '/'));
            if (Files.isSymbolicLink(p))
                add(Entry.symlink(name, Files.readSymbolicLink(p).toString()));
            else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                add(Entry.directory(name, 0755));
            else add(Entry.file(name, p, Files.isExecutable(p) ? 0755 : 0644));
        }
        return this;
    }

    /** Writes the layer to {@code file}. */
    BuiltImage.LayerFile write(Path file) throws IOException {
        Digests.Counting compressed, tar;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            compressed = new Digests.Counting(out);
            try (GZIPOutputStream gzip = new GZIPOutputStream(compressed, 1 << 16)) {
                tar = new Digests.Counting(gzip);
                try (TarArchiveOutputStream archive = new TarArchiveOutputStream(tar)) {
                    archive.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
                    archive.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
                    for (Entry e : new ArrayList<>(entries.values())) write(archive, e);
                }
            }
        }
        return new BuiltImage.LayerFile(
                file,
                new ImageDescriptor(
                        ImageBuilder.LAYER_MEDIA_TYPE,
                        Digests.of(compressed.digest),
                        compressed.count),
                Digests.of(tar.digest));
    }

    private static void write(TarArchiveOutputStream archive, Entry e) throws IOException {
        TarArchiveEntry t;
        if (e.link() != null) {
            t = new TarArchiveEntry(e.path(), TarArchiveEntry.LF_SYMLINK);
            t.setLinkName(e.link());
        } else {
            t = new TarArchiveEntry(e.isDirectory() ? e.path() + "/" : e.path());
        }
        t.setModTime(0);
        t.setMode((e.link() != null ? 0120000 : e.isDirectory() ? 040000 : 0100000) | e.mode());
        t.setUserId(0);
        t.setGroupId(0);
        if (e.source() != null) t.setSize(Files.size(e.source()));
        else if (e.content() != null) t.setSize(e.content().length);
        archive.putArchiveEntry(t);
        if (e.source() != null) Files.copy(e.source(), archive);
        else if (e.content() != null) archive.write(e.content());
        archive.closeArchiveEntry();
    }
}
