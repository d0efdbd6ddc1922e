package io.upshift.releases.image;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;

/** Content addressing: a blob must have exactly the size and digest its manifest gives. */
final class BlobCheck {

    private BlobCheck() {}

    static void verify(ImageRef ref, ImageDescriptor expected, long size, String digest)
            throws ReleaseException {
        String where = (ref == null ? "" : ref + ": ") + "blob " + expected.digest();
        if (expected.size() >= 0 && size < expected.size()) {
            throw new ReleaseException(
                    Reason.BLOB_TRUNCATED,
                    where + " ended after " + size + " of " + expected.size() + " bytes");
        }
        if (!digest.equals(expected.digest())
                || (expected.size() >= 0 && size != expected.size())) {
            throw new ReleaseException(
                    Reason.BLOB_DIGEST_MISMATCH,
                    where
                            + " has digest "
                            + digest
                            + " and "
                            + size
                            + " bytes: its content is not what the manifest names");
        }
    }
}
