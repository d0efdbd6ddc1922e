package io.upshift.release.image;

import java.util.List;

/** An image found in a store: the digest of its manifest, its config and its layers (in order). */
public record ResolvedImage(ImageRef ref, String digest, ImageDescriptor config, List<ImageDescriptor> layers) {

    public ResolvedImage {
        layers = List.copyOf(layers);
    }

    /** The image pinned by digest, e.g. {@code host/repo@sha256:…}. */
    public String pullspec() {
        return ref.repositoryName() + "@" + digest;
    }

    public long size() {
        return layers.stream().mapToLong(ImageDescriptor::size).sum();
    }
}
