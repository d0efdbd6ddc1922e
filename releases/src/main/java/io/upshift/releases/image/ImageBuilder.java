package io.upshift.releases.image;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.tools.jib.api.DescriptorDigest;
import com.google.cloud.tools.jib.image.json.OciManifestTemplate;
import com.google.cloud.tools.jib.json.JsonTemplateMapper;
import io.upshift.api.json.Mappers;
import io.upshift.base.version.SemVer;
import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.manifest.ManifestReader;
import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.metadata.ReleaseMetadata;
import io.upshift.releases.payload.PayloadLoader;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.DigestException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * Builds a release image from a payload directory. The image's release-metadata and
 * image-references are written for the version given, so the image is always consistent; the
 * payload is loaded first, so an invalid payload is refused before anything is published. The image
 * is reproducible: the release's time ({@link ReleaseTime}) is its config's {@code created}, its
 * history's and its ImageStream's, and every entry of the payload's layer has it; entries are
 * sorted and have no owners.
 */
public final class ImageBuilder {

    public static final String LAYER_MEDIA_TYPE = "application/vnd.oci.image.layer.v1.tar+gzip";
    public static final String CONFIG_MEDIA_TYPE = "application/vnd.oci.image.config.v1+json";
    public static final String VERSION_LABEL = "io.openshift.release";

    /**
     * The label naming the image a release was built on, by digest (OCI's annotation key, as a
     * label).
     */
    public static final String BASE_LABEL = "org.opencontainers.image.base.name";

    /** oc's label naming the digest of the image a release was built on. */
    public static final String BASE_DIGEST_LABEL = "io.openshift.release.base-image-digest";

    /** The comment of a release image's first history entry, as {@code oc adm release new}'s. */
    static final String HISTORY_COMMENT = "Release image for OpenShift";

    /**
     * The image a release is laid on: its pullspec by digest, config and layers (fetched, bottom
     * first).
     */
    public record Base(String pullspec, byte[] config, List<BuiltImage.LayerFile> layers) {
        /**
         * True when it is Upshift's own image ({@link UpshiftImage}'s title label): the release
         * then runs Upshift's controller.
         */
        public boolean runsUpshift() {
            try {
                return UpshiftImage.TITLE.equals(
                        JSON.readTree(config)
                                .path("config")
                                .path("Labels")
                                .path(UpshiftImage.TITLE_LABEL)
                                .asText());
            } catch (IOException e) {
                return false;
            }
        }
    }

    /** What {@code {{.ReleaseImage}}} is filled with while a release is built and checked. */
    private static final String BEING_BUILT = "(release image being built)";

    private static final ObjectMapper JSON = Mappers.JSON;

    private ImageBuilder() {}

    /**
     * Builds the image for payload {@code from} into {@code workDir} (which receives the layer
     * file).
     *
     * @param previous versions this release may be updated from; null keeps the payload's own list
     */
    public static BuiltImage build(
            Path from,
            String version,
            List<String> previous,
            Path workDir,
            Consumer<String> warnings)
            throws ReleaseException {
        return build(from, version, previous, null, null, workDir, warnings);
    }

    /** As the full form, the release's time chosen from the payload ({@link ReleaseTime#of}). */
    public static BuiltImage build(
            Path from,
            String version,
            List<String> previous,
            Base base,
            Path workDir,
            Consumer<String> warnings)
            throws ReleaseException {
        return build(from, version, previous, null, base, workDir, warnings);
    }

    /**
     * The image a release is when it is also the controller's own image: {@code base}'s layers
     * (Upshift's image), the payload's layer on top, {@code base}'s config (entry point, user,
     * environment) with the release's label and the base's name added ({@value #BASE_LABEL}).
     * Without a base, the payload's layer alone.
     *
     * <p>A payload that would run a second cluster-version operator is refused ({@link
     * ControllerDeployment#others}). A release laid on Upshift's image runs Upshift's controller as
     * its one operator ({@link #withUpshiftsOperator}).
     *
     * @param created the release's time; null chooses it from the payload ({@link ReleaseTime#of})
     */
    public static BuiltImage build(
            Path from,
            String version,
            List<String> previous,
            Instant created,
            Base base,
            Path workDir,
            Consumer<String> warnings)
            throws ReleaseException {
        if (!SemVer.isValid(version)) {
            throw new ReleaseException(
                    Reason.RELEASE_METADATA_INVALID,
                    "--version \"" + version + "\" is not a semantic version");
        }
        for (String p : previous == null ? List.<String>of() : previous) {
            if (!SemVer.isValid(p))
                throw new ReleaseException(
                        Reason.RELEASE_METADATA_INVALID,
                        "--previous \"" + p + "\" is not a semantic version");
        }
        Path releaseDir = from.resolve(PayloadLoader.RELEASE_DIR);
        if (!Files.isDirectory(releaseDir)) {
            throw new ReleaseException(
                    Reason.PAYLOAD_NOT_FOUND,
                    from
                            + " is not a payload directory: "
                            + PayloadLoader.RELEASE_DIR
                            + "/ is missing");
        }
        Instant time =
                created == null
                        ? ReleaseTime.of(from)
                        : ReleaseTime.checked(created, "the release time");
        try {
            ReleaseMetadata metadata = metadataFor(releaseDir, version, previous);
            ImageReferences images =
                    Files.isRegularFile(releaseDir.resolve(ImageReferences.FILE))
                            ? ImageReferences.parse(
                                    Files.readAllBytes(releaseDir.resolve(ImageReferences.FILE)),
                                    PayloadLoader.RELEASE_DIR + "/" + ImageReferences.FILE)
                            : new ImageReferences(version, Map.of());
            images = images.named(version, time);

            // Stage the payload as it will be published and load it: what we push is what a cluster
            // will load.
            Path staged = Files.createTempDirectory(workDir, "payload-");
            copyTree(from, staged);
            Files.createDirectories(staged.resolve(PayloadLoader.OPERATOR_DIR));
            Files.write(
                    staged.resolve(PayloadLoader.RELEASE_DIR).resolve(ReleaseMetadata.FILE),
                    metadata.toJson());
            Files.write(
                    staged.resolve(PayloadLoader.RELEASE_DIR).resolve(ImageReferences.FILE),
                    images.toJson());
            var loaded = PayloadLoader.load(staged, BEING_BUILT, InclusionRules.none(), warnings);
            List<String> others = ControllerDeployment.others(loaded.documents(), BEING_BUILT);
            if (!others.isEmpty())
                throw new ReleaseException(Reason.MANIFEST_INVALID, String.join("; ", others));
            if (base != null && base.runsUpshift()) {
                withUpshiftsOperator(staged, ControllerDeployment.theOperator(loaded), warnings);
                PayloadLoader.load(staged, BEING_BUILT, InclusionRules.none(), warnings);
            }

            Path layer = workDir.resolve("layer.tar.gz");
            String diffId;
            Digests.Counting compressed;
            try (OutputStream file =
                    new BufferedOutputStream(Files.newOutputStream(layer), 1 << 16)) {
                compressed = new Digests.Counting(file);
                Digests.Counting tar;
                try (GZIPOutputStream gzip = new GZIPOutputStream(compressed, 1 << 16)) {
                    tar = new Digests.Counting(gzip);
                    writeTar(staged, tar, time);
                }
                diffId = Digests.of(tar.digest);
            }
            ImageDescriptor layerDescriptor =
                    new ImageDescriptor(
                            LAYER_MEDIA_TYPE, Digests.of(compressed.digest), compressed.count);
            FileTrees.delete(staged);

            byte[] config = config(metadata, diffId, base, time);
            ImageDescriptor configDescriptor =
                    new ImageDescriptor(CONFIG_MEDIA_TYPE, Digests.of(config), config.length);
            List<BuiltImage.LayerFile> layers =
                    new ArrayList<>(base == null ? List.of() : base.layers());
            layers.add(new BuiltImage.LayerFile(layer, layerDescriptor, diffId));
            OciManifestTemplate manifest = new OciManifestTemplate();
            manifest.setContainerConfiguration(
                    config.length, DescriptorDigest.fromDigest(configDescriptor.digest()));
            for (BuiltImage.LayerFile l : layers)
                manifest.addLayer(
                        l.descriptor().size(),
                        DescriptorDigest.fromDigest(l.descriptor().digest()));
            byte[] manifestBytes = JsonTemplateMapper.toByteArray(manifest);
            return new BuiltImage(
                    metadata,
                    layers,
                    config,
                    configDescriptor,
                    manifestBytes,
                    Digests.of(manifestBytes),
                    metadata.version());
        } catch (IOException | DigestException e) {
            throw new ReleaseException(
                    Reason.PAYLOAD_NOT_FOUND,
                    "cannot build the release image from " + from + ": " + e.getMessage(),
                    e);
        }
    }

    private static ReleaseMetadata metadataFor(
            Path releaseDir, String version, List<String> previous)
            throws ReleaseException, IOException {
        Path file = releaseDir.resolve(ReleaseMetadata.FILE);
        ReleaseMetadata existing =
                Files.isRegularFile(file)
                        ? ReleaseMetadata.parse(
                                Files.readAllBytes(file),
                                PayloadLoader.RELEASE_DIR + "/" + ReleaseMetadata.FILE)
                        : null;
        return new ReleaseMetadata(
                version,
                previous != null ? previous : existing != null ? existing.previous() : List.of(),
                existing != null ? existing.next() : List.of(),
                existing != null ? existing.metadata() : Map.of());
    }

    /**
     * The release's config, as {@code oc adm release new} makes it: {@code created} is the
     * release's time, and the history one entry per layer at that time, the first saying what the
     * image is (a base's history would describe layers without the payload's).
     */
    private static byte[] config(ReleaseMetadata metadata, String diffId, Base base, Instant time)
            throws IOException {
        ObjectNode config =
                base == null ? JSON.createObjectNode() : (ObjectNode) JSON.readTree(base.config());
        if (base == null) config.put("architecture", "amd64").put("os", "linux");
        ObjectNode labels = config.withObjectProperty("config").withObjectProperty("Labels");
        labels.put(VERSION_LABEL, metadata.version());
        if (base != null) {
            labels.put(BASE_LABEL, base.pullspec());
            int at = base.pullspec().lastIndexOf('@');
            if (at >= 0) labels.put(BASE_DIGEST_LABEL, base.pullspec().substring(at + 1));
        }
        config.put("created", time.toString());
        ObjectNode rootfs = config.withObjectProperty("rootfs").put("type", "layers");
        if (base == null) rootfs.putArray("diff_ids");
        rootfs.withArray("diff_ids").add(diffId);
        ArrayNode history = config.putArray("history");
        history.addObject().put("created", time.toString()).put("comment", HISTORY_COMMENT);
        for (int i = 1; i < rootfs.withArray("diff_ids").size(); i++)
            history.addObject().put("created", time.toString());
        return JSON.writeValueAsBytes(config);
    }

    /**
     * The payload's layer, laid out as {@code oc adm release new} lays out its own, so that {@code
     * oc adm release info} and {@code extract} read it exactly as theirs: each payload directory's
     * entry named as Go's tar writer names it ({@code release-manifests}, no trailing slash: oc
     * reads {@code release-manifests/} and would count an entry of that name as a metadata file),
     * then its files. What oc's layer has not, and reads not, is a whiteout of each directory at
     * the top of the layer ({@code .wh.release-manifests}), before the directory: it hides whatever
     * lower layers put there (the OCI image spec applies a whiteout to lower layers only), so a
     * reader of this layer alone reads the payload whole ({@link SafeExtractor#sealedDirs}). An
     * opaque whiteout inside the directory would do the same but is an entry under {@code
     * release-manifests/}, which oc counts.
     */
    private static void writeTar(Path root, OutputStream out, Instant time) throws IOException {
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            for (String top : List.of(PayloadLoader.OPERATOR_DIR, PayloadLoader.RELEASE_DIR)) {
                TarArchiveEntry whiteout = new TarArchiveEntry(SafeExtractor.WHITEOUT + top);
                whiteout.setModTime(time.toEpochMilli());
                whiteout.setMode(0644);
                tar.putArchiveEntry(whiteout);
                tar.closeArchiveEntry();
                List<Path> paths;
                try (Stream<Path> walk = Files.walk(root.resolve(top))) {
                    paths = walk.sorted().toList();
                }
                for (Path p : paths) {
                    String name = root.relativize(p).toString().replace('\\', '/');
                    boolean dir = Files.isDirectory(p);
                    TarArchiveEntry e =
                            dir
                                    ? new TarArchiveEntry(name, TarConstants.LF_DIR)
                                    : new TarArchiveEntry(name);
                    e.setModTime(time.toEpochMilli());
                    e.setMode(dir ? 0755 : 0644);
                    if (!dir) e.setSize(Files.size(p));
                    tar.putArchiveEntry(e);
                    if (!dir) Files.copy(p, tar);
                    tar.closeArchiveEntry();
                }
            }
        }
    }

    /**
     * Copies the regular files and directories of a payload; links are not followed into the image.
     */
    private static void copyTree(Path from, Path to) throws IOException {
        List<Path> paths = new ArrayList<>();
        for (String top : List.of(PayloadLoader.OPERATOR_DIR, PayloadLoader.RELEASE_DIR)) {
            if (!Files.isDirectory(from.resolve(top))) continue;
            try (Stream<Path> walk = Files.walk(from.resolve(top))) {
                walk.forEach(paths::add);
            }
        }
        for (Path p : paths) {
            Path target = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) Files.createDirectories(target);
            else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) Files.copy(p, target);
        }
    }

    /**
     * A release laid on Upshift's image runs Upshift as its cluster-version operator: a payload
     * without {@value ControllerDeployment#NAMESPACE}/{@value ControllerDeployment#NAME} gets
     * deploy/'s; one whose Deployment there runs upstream's operator ({@code start}, an OpenShift
     * payload) has it replaced by deploy/'s, which takes its place; one of the payload's own making
     * is kept. {@code warnings} says what was done.
     */
    private static void withUpshiftsOperator(
            Path staged, Optional<Manifest> operator, Consumer<String> warnings)
            throws IOException, ReleaseException {
        Path dir = staged.resolve(PayloadLoader.OPERATOR_DIR);
        String name = ControllerDeployment.NAMESPACE + "/" + ControllerDeployment.NAME;
        if (operator.isPresent()) {
            Manifest upstream = operator.get();
            if (!ControllerDeployment.runsUpstreams(upstream, BEING_BUILT)) return;
            Path file = dir.resolve(upstream.file());
            if (ManifestReader.read(upstream.file(), Files.readString(file)).size() != 1)
                throw new ReleaseException(
                        Reason.MANIFEST_INVALID,
                        PayloadLoader.OPERATOR_DIR
                                + "/"
                                + upstream.file()
                                + " holds upstream's cluster-version operator "
                                + name
                                + " among other objects: Upshift's operator replaces it, so it must"
                                + " be alone in its file");
            Files.writeString(file, ControllerDeployment.manifest());
            warnings.accept(
                    PayloadLoader.OPERATOR_DIR
                            + "/"
                            + upstream.file()
                            + " runs upstream's cluster-version operator: replaced by deploy/'s "
                            + name
                            + ", Upshift's, which takes its place (one operator writes"
                            + " ClusterVersion)");
            return;
        }
        Path file = dir.resolve(ControllerDeployment.FILE);
        if (Files.exists(file)) {
            throw new ReleaseException(
                    Reason.MANIFEST_INVALID,
                    PayloadLoader.OPERATOR_DIR
                            + "/"
                            + ControllerDeployment.FILE
                            + " holds no Deployment "
                            + name
                            + ", and deploy/'s cannot be added under that name: rename that file"
                            + " or add the controller Deployment yourself");
        }
        Files.writeString(file, ControllerDeployment.manifest());
        warnings.accept(
                PayloadLoader.OPERATOR_DIR
                        + "/ has no cluster-version operator Deployment "
                        + name
                        + ": added deploy/'s, running the release image with --release, as "
                        + PayloadLoader.OPERATOR_DIR
                        + "/"
                        + ControllerDeployment.FILE);
    }
}
