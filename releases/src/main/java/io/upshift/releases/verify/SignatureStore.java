package io.upshift.releases.verify;

import java.io.IOException;
import java.util.List;

/**
 * Where signatures of release digests are kept: a directory ({@code file://}), a web server ({@code
 * http(s)://}, layout {@code <base>/sha256=<hex>/signature-<N>}) or ConfigMaps in the cluster.
 */
public interface SignatureStore {

    /** Signatures stores keep at most this many signatures per digest. */
    int MAX_SIGNATURES = 64;

    /** Names the store in messages, e.g. its URL. */
    String name();

    /**
     * The signatures the store holds for {@code digest} ({@code sha256:<hex>}), signature-1 first;
     * empty when none.
     *
     * @throws IOException when the store cannot be read (it does not mean "no signature")
     */
    List<byte[]> signatures(String digest) throws IOException;

    /** {@code sha256=<hex>}: the digest as a path segment, as the reference's stores lay it out. */
    static String directoryName(String digest) {
        return digest.replaceFirst(":", "=");
    }
}
