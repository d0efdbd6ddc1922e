package io.upshift.releases.image;

import io.upshift.releases.metadata.ReleaseMetadata;
import java.nio.file.Path;
import java.util.List;

/**
 * An image ready to publish: its gzip tar layers (files, bottom first), its config and its OCI
 * manifest; {@link #digest()} is the manifest's. A release image has its payload in the top layer
 * and its metadata set; Upshift's own image has none ({@code metadata} null) and is tagged {@code
 * defaultTag} when published without a tag.
 */
public record BuiltImage(
        ReleaseMetadata metadata,
        List<LayerFile> layers,
        byte[] config,
        ImageDescriptor configDescriptor,
        byte[] manifest,
        String digest,
        String defaultTag) {

    /**
     * One layer: its file, its descriptor, and the digest of its uncompressed tar (the config's
     * diff id).
     */
    public record LayerFile(Path file, ImageDescriptor descriptor, String diffId) {}

    public BuiltImage {
        layers = List.copyOf(layers);
    }

    /** The top layer's file: a release image's payload. */
    public Path layer() {
        return layers.get(layers.size() - 1).file();
    }

    /** The top layer's descriptor. */
    public ImageDescriptor layerDescriptor() {
        return layers.get(layers.size() - 1).descriptor();
    }

    public List<ImageDescriptor> layerDescriptors() {
        return layers.stream().map(LayerFile::descriptor).toList();
    }

    public long size() {
        return layers.stream().mapToLong(l -> l.descriptor().size()).sum();
    }
}
