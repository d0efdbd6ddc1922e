package io.upshift.releases.image;

import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.metadata.ReleaseMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files of a release's {@code release-manifests/} as {@code oc adm release info} counts them:
 * {@code manifests}, those named {@code .yaml}, {@code .yml} or {@code .json} (its "Manifests:",
 * files, not the documents in them), and {@code metadata}, every other entry but the release's
 * image-references and release-metadata (its "Metadata files:", printed only when there are some).
 * oc counts what the image's top layer holds there; for a release whose top layer holds its payload
 * whole, as oc's and Upshift's do, that is what the payload read holds.
 */
public record ManifestFiles(int manifests, int metadata) {

    private static final List<String> MANIFEST_EXTENSIONS = List.of(".yaml", ".yml", ".json");

    /** Counts the entries under {@code releaseDir} (a payload's {@code release-manifests/}). */
    public static ManifestFiles count(Path releaseDir) throws IOException {
        int manifests = 0, metadata = 0;
        try (Stream<Path> walk = Files.walk(releaseDir)) {
            for (Path p : walk.skip(1).toList()) {
                String name = p.getFileName().toString();
                boolean file = !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
                if (file && MANIFEST_EXTENSIONS.stream().anyMatch(name::endsWith)) manifests++;
                else if (!(file
                        && p.getParent().equals(releaseDir)
                        && (name.equals(ImageReferences.FILE)
                                || name.equals(ReleaseMetadata.FILE)))) metadata++;
            }
        }
        return new ManifestFiles(manifests, metadata);
    }
}
