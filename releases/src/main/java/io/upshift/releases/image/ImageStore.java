package io.upshift.releases.image;

import io.upshift.releases.metadata.ReleaseException;
import java.nio.file.Path;

/** Where release images are kept: a registry or an OCI layout directory. */
public interface ImageStore {

    /** Publishes {@code image} under {@code ref}'s tag; returns the manifest digest. */
    String push(BuiltImage image, ImageRef ref, Progress progress) throws ReleaseException;

    /** Finds the image {@code ref} names. */
    ResolvedImage resolve(ImageRef ref) throws ReleaseException;

    /**
     * Copies blob {@code blob} of {@code image} to {@code target}, checking its size and digest; a
     * partial file is removed on failure.
     */
    void fetch(ResolvedImage image, ImageDescriptor blob, Path target, Progress progress)
            throws ReleaseException;

    /** Receives bytes moved, for progress on long transfers. */
    interface Progress {
        Progress NONE = (done, total) -> {};

        void bytes(long done, long total);
    }
}
