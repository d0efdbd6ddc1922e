package io.upshift.releases.payload;

import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.metadata.ReleaseMetadata;
import java.util.List;
import java.util.stream.Stream;

/**
 * A loaded release payload: its metadata, component images and the manifests that apply to this
 * cluster, in payload order ({@code manifests/} then {@code release-manifests/}, each by file
 * name).
 *
 * @param manifestHash FNV-64 of the included manifests, base64url: changes whenever what would be
 *     applied changes
 * @param excluded manifests left out, each with the rule that left it out
 * @param warnings files skipped without failing the load (a template field this version does not
 *     know)
 */
public record Payload(
        String releaseImage,
        ReleaseMetadata metadata,
        ImageReferences images,
        List<Manifest> manifests,
        List<Excluded> excluded,
        String manifestHash,
        List<String> warnings) {

    /**
     * A manifest left out at load, why, and where it stood: {@code before} manifests of {@link
     * #manifests()} come before it in the payload.
     */
    public record Excluded(Manifest manifest, String reason, int before) {}

    public Payload {
        manifests = List.copyOf(manifests);
        excluded = List.copyOf(excluded);
        warnings = List.copyOf(warnings);
    }

    public String version() {
        return metadata.version();
    }

    /** Every document of the payload: those loaded, then those excluded at load. */
    public List<Manifest> documents() {
        return Stream.concat(manifests.stream(), excluded.stream().map(Excluded::manifest))
                .toList();
    }
}
