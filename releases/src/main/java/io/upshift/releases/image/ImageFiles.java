package io.upshift.releases.image;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * The regular files of one directory of an image (its layers applied bottom up, a later file
 * replacing an earlier one), copied out: how the demo's kubelet starts the controller a release
 * image holds. Entries that would land outside the target are refused.
 */
final class ImageFiles {

    private ImageFiles() {}

    /**
     * Copies the files under {@code directory} (e.g. {@code opt/upshift/}) of {@code layers} into
     * {@code target}.
     */
    static void unpack(List<Path> layers, String directory, Path target) throws ReleaseException {
        String prefix = directory.endsWith("/") ? directory : directory + "/";
        Path root = target.toAbsolutePath().normalize();
        try {
            Files.createDirectories(root);
            for (Path layer : layers) {
                try (InputStream in =
                                new GZIPInputStream(
                                        new BufferedInputStream(Files.newInputStream(layer)));
                        TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
                    for (TarArchiveEntry e = tar.getNextEntry();
                            e != null;
                            e = tar.getNextEntry()) {
                        String name = e.getName().replaceFirst("^\\./", "");
                        if (!name.startsWith(prefix) || !e.isFile()) continue;
                        Path to = root.resolve(name.substring(prefix.length())).normalize();
                        if (!to.startsWith(root))
                            throw new ReleaseException(
                                    Reason.UNSAFE_LAYER_ENTRY,
                                    layer + ": " + name + " leads outside " + target);
                        Files.createDirectories(to.getParent());
                        Files.copy(tar, to, StandardCopyOption.REPLACE_EXISTING);
                        // as a container runtime lays the layer out: runnable where the entry is
                        // (the image's own java), dated as the entry is (the class-data archive
                        // holds its jars' dates and sizes, and is refused by a JVM that finds
                        // others)
                        if ((e.getMode() & 0111) != 0) to.toFile().setExecutable(true, false);
                        Files.setLastModifiedTime(
                                to, FileTime.from(e.getLastModifiedDate().toInstant()));
                    }
                }
            }
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID,
                    "cannot unpack " + directory + " of the image: " + e.getMessage(),
                    e);
        }
    }

    /**
     * Lays the files of {@code layers} (directories {@link #unpack} made, bottom up) into {@code
     * target} as hard links, a later layer's file replacing an earlier one's, as {@link #unpack} of
     * all of them would.
     */
    static void link(List<Path> layers, Path target) throws IOException {
        Path root = Files.createDirectories(target.toAbsolutePath().normalize());
        for (Path layer : layers) {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(layer)) {
                files = walk.filter(Files::isRegularFile).toList();
            }
            for (Path f : files) {
                Path to = root.resolve(layer.relativize(f).toString());
                Files.createDirectories(to.getParent());
                Files.deleteIfExists(to);
                Files.createLink(to, f);
            }
        }
    }
}
