package io.upshift.releases.image;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.PayloadLoader;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Unpacks the payload ({@code manifests/} and {@code release-manifests/}) of verified image layers
 * into a directory, all or nothing: entries are written to a staging directory beside the target,
 * which replaces the target only when every layer unpacked. Only entries under the payload
 * directories are read; the rest of the image is skipped unread (a RHEL base layer's absolute
 * {@code etc/alternatives} links are none of our business). An entry under them that is absolute,
 * climbs out with {@code ..}, or links outside them rejects the whole image.
 */
public final class SafeExtractor {

    /**
     * The only directories of an image the controller reads: every other file of the image is
     * ignored.
     */
    static final List<String> PAYLOAD_DIRS =
            List.of(PayloadLoader.OPERATOR_DIR, PayloadLoader.RELEASE_DIR);

    static final String OPAQUE = ".wh..wh..opq";

    private SafeExtractor() {}

    /**
     * Unpacks {@code layers} (gzip tars, applied in order) into {@code target}, which must be
     * absent or empty.
     */
    public static void extract(List<Path> layers, Path target) throws ReleaseException {
        Path absolute = target.toAbsolutePath().normalize();
        try {
            if (Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
                boolean empty;
                try (var entries = Files.list(absolute)) {
                    empty =
                            Files.isDirectory(absolute, LinkOption.NOFOLLOW_LINKS)
                                    && entries.findAny().isEmpty();
                }
                if (!empty)
                    throw new ReleaseException(
                            Reason.TARGET_NOT_EMPTY,
                            target + " already exists and is not an empty directory");
            }
            Files.createDirectories(absolute.getParent());
        } catch (IOException e) {
            throw new ReleaseException(Reason.TARGET_NOT_EMPTY, target + ": " + e.getMessage(), e);
        }
        Path staging;
        try {
            staging =
                    Files.createTempDirectory(
                            absolute.getParent(), "." + absolute.getFileName() + ".extract-");
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.TARGET_NOT_EMPTY,
                    "cannot write beside " + target + ": " + e.getMessage(),
                    e);
        }
        try {
            for (Path layer : layers) unpack(layer, staging.toRealPath());
            if (!Files.isDirectory(staging.resolve(PayloadLoader.RELEASE_DIR))) {
                throw new ReleaseException(
                        Reason.PAYLOAD_NOT_FOUND,
                        "the image holds no "
                                + PayloadLoader.RELEASE_DIR
                                + "/ directory: it is not a release image");
            }
            Files.createDirectories(staging.resolve(PayloadLoader.OPERATOR_DIR));
            Files.createDirectories(staging.resolve(PayloadLoader.RELEASE_DIR));
            Files.deleteIfExists(absolute);
            Files.move(staging, absolute, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            FileTrees.deleteQuietly(staging);
            throw new ReleaseException(
                    Reason.IMAGE_INVALID,
                    "cannot unpack the image into " + target + ": " + e.getMessage(),
                    e);
        } catch (ReleaseException e) {
            FileTrees.deleteQuietly(staging);
            throw e;
        }
    }

    private static void unpack(Path layer, Path root) throws IOException, ReleaseException {
        Set<Path> written =
                new HashSet<>(); // an opaque whiteout hides lower layers only, not its own layer's
        // entries
        try (InputStream file = new BufferedInputStream(Files.newInputStream(layer), 1 << 16);
                TarArchiveInputStream tar =
                        new TarArchiveInputStream(new GZIPInputStream(file, 1 << 16))) {
            TarArchiveEntry e;
            while ((e = tar.getNextEntry()) != null) {
                String name = e.getName();
                String clean = name.startsWith("./") ? name.substring(2) : name;
                String top = clean.replaceFirst("^/+", "").split("/")[0];
                if (top.startsWith(".wh.")
                        && PAYLOAD_DIRS.contains(top.substring(4))
                        && clean.equals(top)) {
                    FileTrees.delete(
                            root.resolve(
                                    top.substring(
                                            4))); // the whole payload directory removed by this
                    // layer
                    continue;
                }
                if (!PAYLOAD_DIRS.contains(top)) {
                    // the rest of the image (a base OS with absolute links such as
                    // etc/alternatives) is not read, but
                    // nothing may climb into the payload from outside it
                    if (Arrays.asList(clean.split("/")).contains("..")
                            && inPayload(
                                    root,
                                    root.resolve(clean.replaceFirst("^/+", "")).normalize())) {
                        throw unsafe(name, "climbs into the payload with \"..\"");
                    }
                    continue;
                }
                Path dest = inside(root, clean, name);
                String leaf = dest.getFileName().toString();
                if (e.isSymbolicLink()) {
                    Path linkTarget = dest.getParent().resolve(e.getLinkName()).normalize();
                    if (e.getLinkName().startsWith("/") || !inPayload(root, linkTarget)) {
                        throw unsafe(
                                name,
                                "is a symbolic link to "
                                        + e.getLinkName()
                                        + ", outside "
                                        + String.join("/ and ", PAYLOAD_DIRS)
                                        + "/");
                    }
                    Files.createDirectories(dest.getParent());
                    Files.deleteIfExists(dest);
                    Files.createSymbolicLink(dest, dest.getParent().relativize(linkTarget));
                    written.add(dest);
                } else if (e.isLink()) {
                    Path linkTarget =
                            inside(
                                    root,
                                    e.getLinkName(),
                                    name + " (hard link to " + e.getLinkName() + ")");
                    if (!inPayload(root, linkTarget))
                        throw unsafe(
                                name,
                                "is a hard link to " + e.getLinkName() + ", outside the payload");
                    Files.createDirectories(dest.getParent());
                    Files.deleteIfExists(dest);
                    Files.createLink(dest, linkTarget);
                    written.add(dest);
                } else if (leaf.startsWith(".wh.")) {
                    // OCI whiteout: this layer removes a file of a lower one, or (opaque) all of a
                    // directory's lower content
                    if (leaf.equals(OPAQUE)) clear(dest.getParent(), written);
                    else FileTrees.delete(dest.getParent().resolve(leaf.substring(4)));
                } else if (e.isDirectory()) {
                    Files.createDirectories(dest);
                    written.add(dest);
                } else if (e.isFile()) {
                    Files.createDirectories(dest.getParent());
                    checkNoLinkOnTheWay(root, dest, name);
                    Files.copy(tar, dest, StandardCopyOption.REPLACE_EXISTING);
                    written.add(dest);
                } else {
                    throw unsafe(name, "is a device, FIFO or other special file");
                }
            }
        } catch (EOFException e) {
            throw new ReleaseException(
                    Reason.BLOB_TRUNCATED,
                    "layer " + layer.getFileName() + " ends in the middle of an entry",
                    e);
        }
    }

    /**
     * The payload directories whose content in lower layers {@code layer} hides (an opaque whiteout
     * in them, a whiteout of them, or an entry that is not a directory in their place): below such
     * a layer nothing of that directory can show, so lower layers need not be read for it.
     */
    public static Set<String> sealedDirs(Path layer) throws ReleaseException {
        Set<String> sealed = new HashSet<>();
        try (InputStream file = new BufferedInputStream(Files.newInputStream(layer), 1 << 16);
                TarArchiveInputStream tar =
                        new TarArchiveInputStream(new GZIPInputStream(file, 1 << 16))) {
            TarArchiveEntry e;
            while ((e = tar.getNextEntry()) != null) {
                String clean =
                        (e.getName().startsWith("./") ? e.getName().substring(2) : e.getName())
                                .replaceFirst("/$", "");
                for (String d : PAYLOAD_DIRS) {
                    if (clean.equals(d + "/" + OPAQUE)
                            || clean.equals(".wh." + d)
                            || clean.equals(d) && !e.isDirectory()) sealed.add(d);
                }
            }
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.BLOB_TRUNCATED,
                    "layer " + layer.getFileName() + " cannot be read: " + e.getMessage(),
                    e);
        }
        return sealed;
    }

    private static boolean inPayload(Path root, Path p) {
        for (String d : PAYLOAD_DIRS) if (p.startsWith(root.resolve(d))) return true;
        return false;
    }

    /**
     * The path of {@code name} under root, refusing absolute names and any that climb out with
     * "..".
     */
    private static Path inside(Path root, String name, String what) throws ReleaseException {
        String clean = name.startsWith("./") ? name.substring(2) : name;
        if (clean.startsWith("/") || clean.matches("^[A-Za-z]:.*"))
            throw unsafe(what, "has an absolute path");
        for (String segment : clean.split("/")) {
            if (segment.equals("..")) throw unsafe(what, "climbs out of the target with \"..\"");
        }
        Path p = root.resolve(clean).normalize();
        if (!p.startsWith(root) || p.equals(root))
            throw unsafe(what, "does not name a file inside the target");
        return p;
    }

    /**
     * Writing through a link planted by an earlier entry could land outside; links were checked,
     * this re-checks.
     */
    private static void checkNoLinkOnTheWay(Path root, Path dest, String name)
            throws IOException, ReleaseException {
        if (!dest.getParent().toRealPath().startsWith(root))
            throw unsafe(name, "would be written through a link outside the target");
        if (Files.isSymbolicLink(dest)) Files.delete(dest);
    }

    /** Removes what lower layers put in {@code dir}, keeping what this layer wrote. */
    private static void clear(Path dir, Set<Path> written) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return;
        try (var entries = Files.list(dir)) {
            for (Path p : entries.toList()) {
                if (!written.contains(p)) FileTrees.delete(p);
                else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) clear(p, written);
            }
        }
    }

    private static ReleaseException unsafe(String entry, String why) {
        return new ReleaseException(
                Reason.UNSAFE_LAYER_ENTRY,
                "layer entry \"" + entry + "\" " + why + "; nothing was extracted");
    }
}
