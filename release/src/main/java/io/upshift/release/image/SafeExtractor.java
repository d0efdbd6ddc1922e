package io.upshift.release.image;

import io.upshift.core.payload.PayloadLoader;
import io.upshift.core.release.Reason;
import io.upshift.core.release.ReleaseException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Unpacks the payload ({@code manifests/} and {@code release-manifests/}) of verified image layers into a directory,
 * all or nothing: entries are written to a staging directory beside the target, which replaces the target only
 * when every layer unpacked. An entry that would land outside the target (absolute, {@code ..}, or through a link
 * pointing outside) rejects the whole image.
 */
public final class SafeExtractor {

    private SafeExtractor() {
    }

    /** Unpacks {@code layers} (gzip tars, applied in order) into {@code target}, which must be absent or empty. */
    public static void extract(List<Path> layers, Path target) throws ReleaseException {
        Path absolute = target.toAbsolutePath().normalize();
        try {
            if (Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
                boolean empty;
                try (var entries = Files.list(absolute)) {
                    empty = Files.isDirectory(absolute, LinkOption.NOFOLLOW_LINKS) && entries.findAny().isEmpty();
                }
                if (!empty) throw new ReleaseException(Reason.TARGET_NOT_EMPTY, target + " already exists and is not an empty directory");
            }
            Files.createDirectories(absolute.getParent());
        } catch (IOException e) {
            throw new ReleaseException(Reason.TARGET_NOT_EMPTY, target + ": " + e.getMessage(), e);
        }
        Path staging;
        try {
            staging = Files.createTempDirectory(absolute.getParent(), "." + absolute.getFileName() + ".extract-");
        } catch (IOException e) {
            throw new ReleaseException(Reason.TARGET_NOT_EMPTY, "cannot write beside " + target + ": " + e.getMessage(), e);
        }
        try {
            for (Path layer : layers) unpack(layer, staging.toRealPath());
            Files.createDirectories(staging.resolve(PayloadLoader.OPERATOR_DIR));
            Files.createDirectories(staging.resolve(PayloadLoader.RELEASE_DIR));
            Files.deleteIfExists(absolute);
            Files.move(staging, absolute, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            FileTrees.deleteQuietly(staging);
            throw new ReleaseException(Reason.IMAGE_INVALID, "cannot unpack the image into " + target + ": " + e.getMessage(), e);
        } catch (ReleaseException e) {
            FileTrees.deleteQuietly(staging);
            throw e;
        }
    }

    private static void unpack(Path layer, Path root) throws IOException, ReleaseException {
        try (InputStream file = new BufferedInputStream(Files.newInputStream(layer), 1 << 16);
             TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(file, 1 << 16))) {
            TarArchiveEntry e;
            while ((e = tar.getNextEntry()) != null) {
                String name = e.getName();
                Path dest = inside(root, name, name);
                String top = root.relativize(dest).getName(0).toString();
                boolean payload = top.equals(PayloadLoader.OPERATOR_DIR) || top.equals(PayloadLoader.RELEASE_DIR);
                String leaf = dest.getFileName() == null ? "" : dest.getFileName().toString();
                if (e.isSymbolicLink()) {
                    Path linkTarget = dest.getParent().resolve(e.getLinkName()).normalize();
                    if (e.getLinkName().startsWith("/") || !linkTarget.startsWith(root)) {
                        throw unsafe(name, "is a symbolic link to " + e.getLinkName() + ", outside the target");
                    }
                    if (payload) {
                        Files.createDirectories(dest.getParent());
                        Files.deleteIfExists(dest);
                        Files.createSymbolicLink(dest, dest.getParent().relativize(linkTarget));
                    }
                } else if (e.isLink()) {
                    Path linkTarget = inside(root, e.getLinkName(), name + " (hard link to " + e.getLinkName() + ")");
                    if (payload) {
                        Files.createDirectories(dest.getParent());
                        Files.deleteIfExists(dest);
                        Files.createLink(dest, linkTarget);
                    }
                } else if (!payload) {
                    continue; // the rest of the image's filesystem is not part of the payload
                } else if (leaf.startsWith(".wh.")) {
                    // OCI whiteout: a later layer removes a file of an earlier one
                    if (leaf.equals(".wh..wh..opq")) clear(dest.getParent());
                    else FileTrees.delete(dest.getParent().resolve(leaf.substring(4)));
                } else if (e.isDirectory()) {
                    Files.createDirectories(dest);
                } else if (e.isFile()) {
                    Files.createDirectories(dest.getParent());
                    checkNoLinkOnTheWay(root, dest, name);
                    Files.copy(tar, dest, StandardCopyOption.REPLACE_EXISTING);
                } else {
                    throw unsafe(name, "is a device, FIFO or other special file");
                }
            }
        } catch (java.io.EOFException e) {
            throw new ReleaseException(Reason.BLOB_TRUNCATED, "layer " + layer.getFileName() + " ends in the middle of an entry", e);
        }
    }

    /** The path of {@code name} under root, refusing absolute names and any that climb out with "..". */
    private static Path inside(Path root, String name, String what) throws ReleaseException {
        String clean = name.startsWith("./") ? name.substring(2) : name;
        if (clean.startsWith("/") || clean.matches("^[A-Za-z]:.*")) throw unsafe(what, "has an absolute path");
        for (String segment : clean.split("/")) {
            if (segment.equals("..")) throw unsafe(what, "climbs out of the target with \"..\"");
        }
        Path p = root.resolve(clean).normalize();
        if (!p.startsWith(root) || p.equals(root)) throw unsafe(what, "does not name a file inside the target");
        return p;
    }

    /** Writing through a link planted by an earlier entry could land outside; links were checked, this re-checks. */
    private static void checkNoLinkOnTheWay(Path root, Path dest, String name) throws IOException, ReleaseException {
        if (!dest.getParent().toRealPath().startsWith(root)) throw unsafe(name, "would be written through a link outside the target");
        if (Files.isSymbolicLink(dest)) Files.delete(dest);
    }

    private static void clear(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return;
        try (var entries = Files.list(dir)) {
            for (Path p : entries.toList()) FileTrees.delete(p);
        }
    }

    private static ReleaseException unsafe(String entry, String why) {
        return new ReleaseException(Reason.UNSAFE_LAYER_ENTRY, "layer entry \"" + entry + "\" " + why + "; nothing was extracted");
    }

}
