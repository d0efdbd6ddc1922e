package io.upshift.releases.image;

import io.upshift.api.files.DiskErrors;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.PayloadLoader;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Unpacks the payload ({@code manifests/} and {@code release-manifests/}) of verified image layers
 * into a directory, all or nothing, and never anywhere else. The layers are first applied to a
 * {@link PayloadTree} in memory (file contents spooled to blobs in a staging directory beside the
 * target), where no entry can reach through a link; only once every layer was read and every link
 * checked is the tree written out (directories, then files moved from their blobs, then links, each
 * created new, never through an existing path) and the staging directory moved into the target's
 * place. Only entries under the payload directories are read; the rest of the image is skipped
 * unread (a RHEL base layer's absolute {@code etc/alternatives} links are none of our business). An
 * entry that is absolute, climbs with {@code ..}, writes, removes or links through a link, or a
 * link that leads outside the payload, rejects the whole image with the entry named.
 */
public final class SafeExtractor {

    /**
     * The only directories of an image the controller reads: every other file of the image is
     * ignored.
     */
    static final List<String> PAYLOAD_DIRS =
            List.of(PayloadLoader.OPERATOR_DIR, PayloadLoader.RELEASE_DIR);

    static final String OPAQUE = ".wh..wh..opq";
    static final String WHITEOUT = ".wh.";
    private static final String BLOBS = ".blobs";

    /**
     * How much a payload may hold: bytes per file, bytes in all, entries in all (OpenShift 4.19's
     * payload: 9 MB in about 900 files, the largest 740 KB).
     */
    public record Limits(long fileBytes, long totalBytes, int entries) {
        public static final Limits DEFAULT = new Limits(64L << 20, 1L << 30, 100_000);
    }

    private SafeExtractor() {}

    /**
     * Unpacks {@code layers} (gzip tars, applied in order) into {@code target}, which must be
     * absent or empty.
     */
    public static void extract(List<Path> layers, Path target) throws ReleaseException {
        extract(layers, target, Limits.DEFAULT);
    }

    static void extract(List<Path> layers, Path target, Limits limits) throws ReleaseException {
        Path absolute = target.toAbsolutePath().normalize();
        Path made = firstMissing(absolute.getParent()); // removed again if nothing is extracted
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
            throw new ReleaseException(
                    Reason.TARGET_NOT_EMPTY, target + ": " + DiskErrors.describe(e), e);
        }
        Path staging;
        try {
            staging =
                    Files.createTempDirectory(
                            absolute.getParent(), "." + absolute.getFileName() + ".extract-");
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.WRITE_FAILED,
                    "cannot write beside " + target + ": " + DiskErrors.describe(e),
                    e);
        }
        try {
            Path blobs = Files.createDirectory(staging.resolve(BLOBS));
            PayloadTree tree = new PayloadTree(PAYLOAD_DIRS);
            Budget budget = new Budget(limits);
            for (int i = 0; i < layers.size(); i++) read(layers.get(i), i, tree, blobs, budget);
            try {
                tree.finish();
            } catch (PayloadTree.Refused e) {
                throw unsafe(e.entry(), e.getMessage());
            }
            if (!(tree.lookup(List.of(PayloadLoader.RELEASE_DIR)) instanceof PayloadTree.Dir)) {
                throw new ReleaseException(
                        Reason.PAYLOAD_NOT_FOUND,
                        "the image holds no "
                                + PayloadLoader.RELEASE_DIR
                                + "/ directory: it is not a release image");
            }
            write(tree, staging);
            FileTrees.delete(blobs);
            Files.createDirectories(staging.resolve(PayloadLoader.OPERATOR_DIR));
            Files.deleteIfExists(absolute);
            Files.move(staging, absolute, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            FileTrees.deleteQuietly(made != null ? made : staging);
            throw new ReleaseException(
                    Reason.WRITE_FAILED,
                    "cannot unpack the image into " + target + ": " + DiskErrors.describe(e),
                    e);
        } catch (ReleaseException e) {
            FileTrees.deleteQuietly(made != null ? made : staging);
            throw e;
        }
    }

    /** The outermost ancestor of {@code dir} (or itself) that does not exist yet; null if none. */
    private static Path firstMissing(Path dir) {
        Path missing = null;
        for (Path p = dir;
                p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS);
                p = p.getParent()) missing = p;
        return missing;
    }

    /** Applies one layer's payload entries to {@code tree}, their bytes spooled into blobs. */
    private static void read(Path layer, int index, PayloadTree tree, Path blobs, Budget budget)
            throws IOException, ReleaseException {
        try (InputStream file = new BufferedInputStream(Files.newInputStream(layer), 1 << 16);
                TarArchiveInputStream tar =
                        new TarArchiveInputStream(new GZIPInputStream(file, 1 << 16))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                TarArchiveEntry entry = e;
                String name = e.getName();
                EntryPath path = EntryPath.of(name);
                try {
                    apply(e, path, index, tree, () -> spool(tar, entry, blobs, budget));
                } catch (PayloadTree.Refused refused) {
                    throw unsafe(name, refused.getMessage());
                }
            }
        } catch (EOFException e) {
            throw new ReleaseException(
                    Reason.BLOB_TRUNCATED,
                    "layer " + layer.getFileName() + " ends in the middle of an entry",
                    e);
        }
    }

    /** The entry's bytes, once asked for: only regular files of the payload are spooled. */
    private interface Content {
        Path blob() throws IOException, ReleaseException;
    }

    private static void apply(
            TarArchiveEntry e, EntryPath path, int layer, PayloadTree tree, Content content)
            throws PayloadTree.Refused, IOException, ReleaseException {
        String leaf = path.leaf();
        boolean payload = PAYLOAD_DIRS.contains(path.top());
        if (leaf.startsWith(WHITEOUT) && !path.climbs() && !path.absolute()) {
            // an OCI whiteout: this layer removes a lower one's entry, or (opaque) all that lower
            // layers put in a directory
            if (leaf.equals(OPAQUE)) {
                if (path.parent().isEmpty() || payload) tree.opaque(path.parent(), layer);
                return;
            }
            List<String> removed = new ArrayList<>(path.parent());
            removed.add(leaf.substring(WHITEOUT.length()));
            if (tree.isPayload(removed)) tree.remove(removed, layer);
            return;
        }
        if (!payload) {
            // the rest of the image is not read, but nothing may climb into the payload from it
            if (path.climbs() && tree.isPayload(path.normalized()))
                throw new PayloadTree.Refused("climbs into the payload with \"..\"");
            return;
        }
        if (path.absolute()) throw new PayloadTree.Refused("has an absolute path");
        if (path.climbs()) throw new PayloadTree.Refused("climbs out of the target with \"..\"");
        if (e.isSymbolicLink()) tree.symlink(path.segments(), e.getLinkName(), layer);
        else if (e.isLink()) {
            EntryPath target = EntryPath.of(e.getLinkName());
            if (target.absolute() || target.climbs())
                throw new PayloadTree.Refused(
                        "is a hard link to " + e.getLinkName() + ", outside the payload");
            tree.hardLink(path.segments(), target.segments(), layer);
        } else if (e.isDirectory()) tree.directory(path.segments(), layer);
        else if (e.isFile()) {
            tree.file(path.segments(), content.blob(), e.getSize(), layer);
        } else throw new PayloadTree.Refused("is a device, FIFO or other special file");
    }

    /** Copies the current entry's bytes into a new blob, within the limits. */
    private static Path spool(
            TarArchiveInputStream tar, TarArchiveEntry e, Path blobs, Budget budget)
            throws IOException, ReleaseException {
        budget.take(e.getName(), e.getSize());
        Path blob = blobs.resolve(Integer.toString(budget.entries));
        try (OutputStream out = Files.newOutputStream(blob, StandardOpenOption.CREATE_NEW)) {
            tar.transferTo(out);
        } catch (IOException failed) {
            throw DiskErrors.naming(blob, failed);
        }
        return blob;
    }

    /** What the payload has taken so far of its limits. */
    private static final class Budget {
        private final Limits limits;
        private long bytes;
        private int entries;

        Budget(Limits limits) {
            this.limits = limits;
        }

        void take(String entry, long size) throws ReleaseException {
            entries++;
            bytes += size;
            String over =
                    size > limits.fileBytes()
                            ? "is "
                                    + size
                                    + " bytes, over the limit of "
                                    + limits.fileBytes()
                                    + " per file"
                            : bytes > limits.totalBytes()
                                    ? "brings the payload to "
                                            + bytes
                                            + " bytes, over the limit of "
                                            + limits.totalBytes()
                                    : entries > limits.entries()
                                            ? "is file number "
                                                    + entries
                                                    + ", over the limit of "
                                                    + limits.entries()
                                            : null;
            if (over != null)
                throw new ReleaseException(
                        Reason.PAYLOAD_TOO_LARGE,
                        "layer entry \"" + entry + "\" " + over + "; nothing was extracted");
        }
    }

    /**
     * Writes the checked tree into the empty {@code staging}: directories and files in tree order,
     * links last, every path created new (a file is moved from its blob, or copied where a hard
     * link shares it), so nothing is ever written through a path that exists.
     */
    private static void write(PayloadTree tree, Path staging) throws IOException {
        Map<Path, Path> placed = new HashMap<>();
        List<PayloadTree.Entry> entries = tree.entries();
        for (PayloadTree.Entry e : entries) {
            Path dest = staging.resolve(String.join("/", e.path()));
            if (e.node() instanceof PayloadTree.Dir) Files.createDirectory(dest);
            else if (e.node() instanceof PayloadTree.File f) {
                Path first = placed.putIfAbsent(f.blob(), dest);
                if (first == null) Files.move(f.blob(), dest);
                else Files.copy(first, dest);
            }
        }
        for (PayloadTree.Entry e : entries) {
            if (e.node() instanceof PayloadTree.Link l)
                Files.createSymbolicLink(
                        staging.resolve(String.join("/", e.path())), Path.of(l.target()));
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
                            || (clean.equals(d) && !e.isDirectory())) sealed.add(d);
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

    private static ReleaseException unsafe(String entry, String why) {
        return new ReleaseException(
                Reason.UNSAFE_LAYER_ENTRY,
                "layer entry \"" + entry + "\" " + why + "; nothing was extracted");
    }
}
