package io.upshift.release.image;

import io.upshift.core.release.ReleaseMetadata;
import java.nio.file.Path;

/**
 * A release image ready to publish: one gzip tar layer (a file) holding {@code manifests/} and
 * {@code release-manifests/}, its config and its OCI manifest; {@link #digest()} is the manifest's.
 */
public record BuiltImage(ReleaseMetadata metadata, Path layer, ImageDescriptor layerDescriptor, byte[] config,
                         ImageDescriptor configDescriptor, byte[] manifest, String digest) {
}
