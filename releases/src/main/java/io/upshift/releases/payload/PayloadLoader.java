package io.upshift.releases.payload;

import io.upshift.api.files.BoundedFiles;
import io.upshift.releases.inclusion.Inclusion;
import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.manifest.ManifestReader;
import io.upshift.releases.manifest.ManifestTemplate;
import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.metadata.ReleaseMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Loads a payload directory: {@code manifests/} (the operator's own manifests, templated with the
 * release image and component images) and {@code release-manifests/} (everything else, with {@code
 * release-metadata} and {@code image-references}). Files other than {@code .yaml}, {@code .yml} and
 * {@code .json} are ignored.
 */
public final class PayloadLoader {

    public static final String OPERATOR_DIR = "manifests";
    public static final String RELEASE_DIR = "release-manifests";

    private static final int ERRORS_SHOWN = 5;

    /**
     * The largest payload file read: a file may hold several documents, each of them at most {@link
     * ManifestReader#DOCUMENT_LIMIT}.
     */
    public static final long FILE_LIMIT = 16L << 20;

    private PayloadLoader() {}

    /**
     * Loads and filters the payload at {@code dir}. Manifests annotated with a major version are
     * checked against the payload's own major version, as the reference does at load time.
     *
     * @param releaseImage the pullspec the payload came from, filled into {@code {{.ReleaseImage}}}
     * @param warnings receives one line per skipped file
     * @throws ReleaseException naming the file (and line) at fault; every invalid manifest file is
     *     listed
     */
    public static Payload load(
            Path dir, String releaseImage, InclusionRules rules, Consumer<String> warnings)
            throws ReleaseException {
        return load(dir, releaseImage, rules.profile(), (version, documents) -> rules, warnings);
    }

    /**
     * Loads the payload at {@code dir} with a cluster's load-time rules, which may depend on the
     * payload's version and content.
     */
    public static Payload load(
            Path dir, String releaseImage, LoadRules rules, Consumer<String> warnings)
            throws ReleaseException {
        return load(dir, releaseImage, rules.profile(), rules::rules, warnings);
    }

    /**
     * @param profile the profile {@code {{.ClusterProfile}}} names (null: the default)
     * @param rulesOf given the payload's version and every document it holds (in payload order,
     *     before any is left out), the rules to load it with
     */
    private static Payload load(
            Path dir,
            String releaseImage,
            String profile,
            BiFunction<String, List<Manifest>, InclusionRules> rulesOf,
            Consumer<String> warnings)
            throws ReleaseException {
        Path operatorDir = dir.resolve(OPERATOR_DIR), releaseDir = dir.resolve(RELEASE_DIR);
        for (Path required : List.of(operatorDir, releaseDir)) {
            if (!Files.isDirectory(required, LinkOption.NOFOLLOW_LINKS)) {
                throw new ReleaseException(
                        Reason.PAYLOAD_NOT_FOUND,
                        dir
                                + " is not a release payload: "
                                + required.getFileName()
                                + "/ is missing"
                                + (Files.isSymbolicLink(required)
                                        ? " (it is a symbolic link)"
                                        : ""));
            }
        }
        ReleaseMetadata metadata =
                ReleaseMetadata.parse(
                        readRequired(releaseDir, ReleaseMetadata.FILE),
                        RELEASE_DIR + "/" + ReleaseMetadata.FILE);
        ImageReferences images =
                ImageReferences.parse(
                        readRequired(releaseDir, ImageReferences.FILE),
                        RELEASE_DIR + "/" + ImageReferences.FILE);
        if (!images.name().equals(metadata.version())) {
            throw new ReleaseException(
                    Reason.IMAGE_REFERENCES_MISMATCH,
                    RELEASE_DIR
                            + "/"
                            + ImageReferences.FILE
                            + ": the ImageStream is named \""
                            + images.name()
                            + "\" but "
                            + ReleaseMetadata.FILE
                            + " gives version \""
                            + metadata.version()
                            + "\"");
        }
        ManifestTemplate template =
                new ManifestTemplate(
                        releaseImage,
                        profile == null ? InclusionRules.DEFAULT_PROFILE : profile,
                        images.images());

        List<Manifest> documents = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (Path sub : List.of(operatorDir, releaseDir)) {
            boolean templated = sub == operatorDir;
            for (Path file : manifestFiles(sub)) {
                String where = sub.getFileName() + "/" + file.getFileName();
                String text;
                try {
                    text =
                            new String(
                                    BoundedFiles.readNoLink(
                                            file, where, FILE_LIMIT, "a payload manifest file"),
                                    StandardCharsets.UTF_8);
                } catch (BoundedFiles.Refused e) {
                    errors.add(e.getMessage());
                    continue;
                } catch (IOException e) {
                    errors.add(where + ": " + e.getMessage());
                    continue;
                }
                if (templated) {
                    try {
                        text = template.render(text);
                    } catch (ManifestTemplate.UnknownFieldException e) {
                        String w =
                                "skipping "
                                        + where
                                        + ": "
                                        + e.getMessage()
                                        + " (the payload may need a newer Upshift)";
                        skipped.add(w);
                        warnings.accept(w);
                        continue;
                    }
                }
                try {
                    documents.addAll(ManifestReader.read(file.getFileName().toString(), text));
                } catch (ReleaseException e) {
                    errors.add(sub.getFileName() + "/" + e.getMessage());
                }
            }
        }
        if (!errors.isEmpty()) {
            String shown =
                    String.join("; ", errors.subList(0, Math.min(ERRORS_SHOWN, errors.size())));
            String more =
                    errors.size() > ERRORS_SHOWN
                            ? " (and " + (errors.size() - ERRORS_SHOWN) + " more)"
                            : "";
            throw new ReleaseException(
                    Reason.MANIFEST_INVALID,
                    (errors.size() == 1 ? "" : errors.size() + " invalid manifest files: ")
                            + shown
                            + more);
        }
        InclusionRules loadRules =
                rulesOf.apply(metadata.version(), documents)
                        .withMajorVersion(metadata.semVer().major());
        List<Manifest> included = new ArrayList<>();
        List<Payload.Excluded> excluded = new ArrayList<>();
        for (Manifest m : documents) {
            Inclusion decision = Inclusion.decide(m, loadRules);
            if (decision.included()) included.add(m);
            else excluded.add(new Payload.Excluded(m, decision.reason(), included.size()));
        }
        return new Payload(
                releaseImage, metadata, images, included, excluded, hash(included), skipped);
    }

    /**
     * The manifest files of one payload directory, sorted by name; hidden files and subdirectories
     * are ignored, a link named as a manifest is kept (and refused when read).
     */
    static List<Path> manifestFiles(Path dir) throws ReleaseException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> ManifestReader.isManifestFile(p.getFileName().toString()))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new ReleaseException(Reason.PAYLOAD_NOT_FOUND, dir + ": " + e.getMessage(), e);
        }
    }

    private static byte[] readRequired(Path releaseDir, String name) throws ReleaseException {
        Path file = releaseDir.resolve(name);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new ReleaseException(
                    Reason.PAYLOAD_NOT_FOUND,
                    RELEASE_DIR + "/" + name + " is missing from " + releaseDir.getParent());
        }
        try {
            return BoundedFiles.readNoLink(
                    file, RELEASE_DIR + "/" + name, FILE_LIMIT, "a release metadata file");
        } catch (BoundedFiles.Refused e) {
            throw new ReleaseException(
                    e.tooLarge() ? Reason.PAYLOAD_TOO_LARGE : Reason.UNSAFE_LAYER_ENTRY,
                    e.getMessage(),
                    e);
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.PAYLOAD_NOT_FOUND, RELEASE_DIR + "/" + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * FNV-1 64-bit over each manifest's JSON form, base64url with padding, as the reference's
     * versionHash.
     */
    static String hash(List<Manifest> manifests) {
        long h = 0xcbf29ce484222325L;
        for (Manifest m : manifests) {
            for (byte b : m.object().toString().getBytes(StandardCharsets.UTF_8)) {
                h *= 0x100000001b3L;
                h ^= (b & 0xff);
            }
        }
        byte[] bytes = ByteBuffer.allocate(8).putLong(h).array();
        return Base64.getUrlEncoder().encodeToString(bytes);
    }
}
