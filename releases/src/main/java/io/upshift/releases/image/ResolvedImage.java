package io.upshift.releases.image;

import java.util.List;

/**
 * An image found in a store: the digest of its manifest (of the manifest list, for a
 * multi-architecture release), its config and its layers (in order, of the cluster's architecture),
 * and {@code location}, where its blobs are read: a mirror, or {@code ref} itself; {@code listed}
 * when it is the entry of a manifest list (its digest then the list's).
 */
public record ResolvedImage(
        ImageRef ref,
        String digest,
        ImageDescriptor config,
        List<ImageDescriptor> layers,
        ImageRef location,
        boolean listed) {

    public ResolvedImage {
        layers = List.copyOf(layers);
    }

    public ResolvedImage(
            ImageRef ref, String digest, ImageDescriptor config, List<ImageDescriptor> layers) {
        this(ref, digest, config, layers, ref, false);
    }

    /** The same image, its blobs read from {@code at}. */
    public ResolvedImage locatedAt(ImageRef at) {
        return new ResolvedImage(ref, digest, config, layers, at, listed);
    }

    /** The same image, as the entry of the manifest list its digest names. */
    public ResolvedImage asListEntry() {
        return new ResolvedImage(ref, digest, config, layers, location, true);
    }

    /** The image pinned by digest, e.g. {@code host/repo@sha256:…}. */
    public String pullspec() {
        return ref.repositoryName() + "@" + digest;
    }

    public long size() {
        return layers.stream().mapToLong(ImageDescriptor::size).sum();
    }
}
