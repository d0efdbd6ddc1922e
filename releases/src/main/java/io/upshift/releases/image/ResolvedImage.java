package io.upshift.releases.image;

import java.util.List;

/**
 * An image found in a store: the digest of its manifest (of the manifest list, for a
 * multi-architecture release), its config and its layers (in order, of the cluster's architecture),
 * and {@code location}, where its blobs are read: a mirror, or {@code ref} itself.
 */
public record ResolvedImage(
        ImageRef ref,
        String digest,
        ImageDescriptor config,
        List<ImageDescriptor> layers,
        ImageRef location) {

    public ResolvedImage {
        layers = List.copyOf(layers);
    }

    public ResolvedImage(
            ImageRef ref, String digest, ImageDescriptor config, List<ImageDescriptor> layers) {
        this(ref, digest, config, layers, ref);
    }

    /** The same image, its blobs read from {@code at}. */
    public ResolvedImage locatedAt(ImageRef at) {
        return new ResolvedImage(ref, digest, config, layers, at);
    }

    /** The image pinned by digest, e.g. {@code host/repo@sha256:…}. */
    public String pullspec() {
        return ref.repositoryName() + "@" + digest;
    }

    public long size() {
        return layers.stream().mapToLong(ImageDescriptor::size).sum();
    }
}
