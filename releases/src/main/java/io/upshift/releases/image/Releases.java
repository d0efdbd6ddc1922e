package io.upshift.releases.image;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/** Publishing, finding and unpacking release images, in registries or OCI layouts alike. */
public final class Releases {

    private final RegistryStore registry;
    private final OciLayoutStore layout = new OciLayoutStore();
    private final Consumer<String> warnings;
    private final RegistryAccess access;

    public Releases(DockerCredentials credentials, boolean insecure, Consumer<String> warnings) {
        this(RegistryAccess.of(credentials, insecure), warnings);
    }

    public Releases(RegistryAccess access, Consumer<String> warnings) {
        this.registry = new RegistryStore(access);
        this.warnings = warnings;
        this.access = access;
    }

    /**
     * The registry access these releases use by default (a cluster adds its own logins, mirrors and
     * proxy to it).
     */
    public RegistryAccess access() {
        return access;
    }

    /** The same, reaching registries with {@code other}. */
    public Releases with(RegistryAccess other) {
        return new Releases(other, warnings);
    }

    private ImageStore store(ImageRef ref) {
        return ref.layout() ? layout : registry;
    }

    /**
     * Builds the image of payload {@code from} and publishes it as {@code to}; returns it pinned by
     * digest.
     */
    public ResolvedImage publish(
            Path from,
            String version,
            List<String> previous,
            ImageRef to,
            ImageStore.Progress progress)
            throws ReleaseException {
        return publish(from, version, previous, null, to, progress);
    }

    /**
     * As {@link #publish(Path, String, List, ImageRef, ImageStore.Progress)}, the payload laid on
     * {@code base} (Upshift's image: the release then runs Upshift); null: the payload alone.
     */
    public ResolvedImage publish(
            Path from,
            String version,
            List<String> previous,
            ImageRef base,
            ImageRef to,
            ImageStore.Progress progress)
            throws ReleaseException {
        return publish(from, version, previous, null, base, to, progress);
    }

    /**
     * As {@link #publish(Path, String, List, ImageRef, ImageRef, ImageStore.Progress)}, made at
     * {@code created} (null: the time the payload gives, {@link ReleaseTime#of}).
     */
    public ResolvedImage publish(
            Path from,
            String version,
            List<String> previous,
            Instant created,
            ImageRef base,
            ImageRef to,
            ImageStore.Progress progress)
            throws ReleaseException {
        requireTag(to); // before anything is built
        Path work = tempDir();
        try {
            return publish(
                    ImageBuilder.build(
                            from,
                            version,
                            previous,
                            created,
                            base == null ? null : fetchBase(base, work),
                            work,
                            warnings),
                    to,
                    progress);
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    /** The base image's config and layers, fetched into {@code work}. */
    private ImageBuilder.Base fetchBase(ImageRef ref, Path work) throws ReleaseException {
        ResolvedImage image = resolve(ref);
        try {
            byte[] config = readConfig(ref, image, work);
            JsonNode diffIds = Mappers.JSON.readTree(config).at("/rootfs/diff_ids");
            if (diffIds.size() != image.layers().size()) {
                throw new ReleaseException(
                        Reason.IMAGE_INVALID,
                        ref
                                + ": its config names "
                                + diffIds.size()
                                + " layers, its manifest "
                                + image.layers().size());
            }
            List<BuiltImage.LayerFile> layers = new ArrayList<>();
            for (int i = 0; i < image.layers().size(); i++) {
                Path file = work.resolve("base-layer-" + i);
                store(ref).fetch(image, image.layers().get(i), file, ImageStore.Progress.NONE);
                layers.add(
                        new BuiltImage.LayerFile(
                                file, image.layers().get(i), diffIds.get(i).asText()));
            }
            return new ImageBuilder.Base(image.pullspec(), config, layers);
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID, ref + ": unreadable image config: " + e.getMessage(), e);
        }
    }

    private byte[] readConfig(ImageRef ref, ResolvedImage image, Path work)
            throws ReleaseException, IOException {
        Path file = work.resolve("config-" + System.nanoTime());
        store(ref).fetch(image, image.config(), file, ImageStore.Progress.NONE);
        try {
            return Files.readAllBytes(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Publishes an image already built (Upshift's own) as {@code to}; returns it pinned by digest.
     */
    public ResolvedImage publish(BuiltImage image, ImageRef to, ImageStore.Progress progress)
            throws ReleaseException {
        requireTag(to);
        String digest = store(to).push(image, to, progress);
        return new ResolvedImage(
                to.withDigest(digest), digest, image.configDescriptor(), image.layerDescriptors());
    }

    /**
     * Copies the files under {@code directory} of image {@code ref} (all its layers) into {@code
     * target}: the demo's kubelet reads the controller a release image runs this way.
     */
    public ResolvedImage unpackDirectory(ImageRef ref, String directory, Path target)
            throws ReleaseException {
        ResolvedImage image = resolve(ref);
        Path work = tempDir();
        try {
            List<Path> layers = new ArrayList<>();
            for (int i = 0; i < image.layers().size(); i++) {
                Path file = work.resolve("layer-" + i);
                store(ref).fetch(image, image.layers().get(i), file, ImageStore.Progress.NONE);
                layers.add(file);
            }
            ImageFiles.unpack(layers, directory, target);
            return image;
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    /**
     * As {@link #unpackDirectory(ImageRef, String, Path)}, as a container runtime keeps layers:
     * each layer's part of {@code directory} is unpacked once, into {@code layers}, and {@code
     * target} gets links to the files of the image's layers (a later one's replacing an earlier
     * one's); an image whose lower layers an image unpacked before shares costs its own layers
     * alone. The files are shared: read them, never write them.
     */
    public ResolvedImage unpackDirectory(ImageRef ref, String directory, Path target, Path layers)
            throws ReleaseException {
        ResolvedImage image = resolve(ref);
        Path work = tempDir();
        try {
            Path cache = Files.createDirectories(layers.resolve(directory.replace('/', '_')));
            List<Path> unpacked = new ArrayList<>();
            for (ImageDescriptor layer : image.layers()) {
                Path dir = cache.resolve(layer.digest().replace(':', '-'));
                if (!Files.isDirectory(dir)) {
                    Path file = work.resolve("layer");
                    Path partial = Files.createTempDirectory(cache, "partial-");
                    try {
                        store(ref).fetch(image, layer, file, ImageStore.Progress.NONE);
                        ImageFiles.unpack(List.of(file), directory, partial);
                        Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
                    } catch (IOException e) {
                        // unpacked beside this one meanwhile (rename(2) onto a non-empty folder
                        // fails, with a plain FileSystemException): the same files
                        if (!Files.isDirectory(dir)) throw e;
                    } finally {
                        Files.deleteIfExists(file);
                        FileTrees.deleteQuietly(partial);
                    }
                }
                unpacked.add(dir);
            }
            ImageFiles.link(unpacked, target);
            return image;
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID,
                    "cannot unpack " + directory + " of the image: " + e.getMessage(),
                    e);
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    public ResolvedImage resolve(ImageRef ref) throws ReleaseException {
        return store(ref).resolve(ref);
    }

    /**
     * Unpacks the payload of {@code ref} into {@code target} (absent or empty): all of it, or
     * nothing.
     */
    public ResolvedImage extract(ImageRef ref, Path target, ImageStore.Progress progress)
            throws ReleaseException {
        return pull(ref, target, progress).image();
    }

    /**
     * Unpacks the payload of {@code ref} into {@code target}, reading layers from the top down and
     * stopping at the first layer below which neither payload directory can show (see {@link
     * SafeExtractor#sealedDirs}): an image whose payload sits in its own top layer costs that layer
     * alone, whatever its base weighs.
     */
    public Pulled pull(ImageRef ref, Path target, ImageStore.Progress progress)
            throws ReleaseException {
        ResolvedImage image = resolve(ref);
        Path work = tempDir();
        try {
            List<Path> read = new ArrayList<>(); // top first
            Set<String> sealed = new HashSet<>();
            long total = image.size(), done = 0;
            for (int i = image.layers().size() - 1;
                    i >= 0 && !sealed.containsAll(SafeExtractor.PAYLOAD_DIRS);
                    i--) {
                ImageDescriptor blob = image.layers().get(i);
                Path file = work.resolve("layer-" + i);
                long before = done;
                store(ref).fetch(image, blob, file, (n, t) -> progress.bytes(before + n, total));
                done += blob.size();
                read.add(file);
                sealed.addAll(SafeExtractor.sealedDirs(file));
            }
            Collections.reverse(read); // applied bottom up, as overlays are
            SafeExtractor.extract(read, target);
            return new Pulled(image, done, read.size());
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    /**
     * A payload unpacked: the image, and what it cost: the bytes of the layers read, and how many
     * of them.
     */
    public record Pulled(ResolvedImage image, long bytesFetched, int layersRead) {
        public String summary() {
            return "read "
                    + layersRead
                    + " of "
                    + image.layers().size()
                    + " layers, "
                    + bytesFetched
                    + " of "
                    + image.size()
                    + " bytes";
        }
    }

    /** The image's identity and its payload as a default cluster would load it. */
    public ReleaseInfo info(ImageRef ref) throws ReleaseException {
        Path work = tempDir();
        try {
            Path payloadDir = work.resolve("payload");
            ResolvedImage image = extract(ref, payloadDir, ImageStore.Progress.NONE);
            Payload payload =
                    PayloadLoader.load(
                            payloadDir, image.pullspec(), InclusionRules.defaults(), warnings);
            JsonNode config = Mappers.JSON.readTree(readConfig(ref, image, work));
            String base = config.at("/config/Labels").path(ImageBuilder.BASE_LABEL).asText("");
            return new ReleaseInfo(
                    image,
                    payload,
                    base,
                    created(config.path("created")),
                    orUnknown(config.path("os").asText(""))
                            + "/"
                            + orUnknown(config.path("architecture").asText("")),
                    ManifestFiles.count(payloadDir.resolve(PayloadLoader.RELEASE_DIR)));
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID, ref + ": unreadable image config: " + e.getMessage(), e);
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    /** As oc names what an image config does not say. */
    private static String orUnknown(String s) {
        return s.isEmpty() ? "unknown" : s;
    }

    /** The config's {@code created}; null when it has none or not an RFC 3339 time. */
    private static Instant created(JsonNode created) {
        try {
            return created.isTextual() ? OffsetDateTime.parse(created.asText()).toInstant() : null;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static void requireTag(ImageRef to) throws ReleaseException {
        if (to.digest() != null)
            throw new ReleaseException(
                    Reason.REFERENCE_INVALID, to + ": publish to a tag, not a digest");
    }

    private static Path tempDir() throws ReleaseException {
        try {
            return Files.createTempDirectory("upshift-release-");
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID,
                    "cannot create a temporary directory: " + e.getMessage(),
                    e);
        }
    }
}
