package io.upshift.releases.verify;

import java.io.IOException;
import java.util.List;
import java.util.function.Predicate;

/**
 * Where signatures of release digests are kept: a directory ({@code file://}), a web server ({@code
 * http(s)://}, layout {@code <base>/sha256=<hex>/signature-<N>}) or ConfigMaps in the cluster.
 */
public interface SignatureStore {

    /** Signatures stores keep at most this many signatures per digest. */
    int MAX_SIGNATURES = 64;

    /**
     * A signature is a few hundred bytes of OpenPGP; anything larger than this is not one, and is
     * not read past this (upstream's signature store reader means to stop at 50 KiB).
     */
    int MAX_SIGNATURE_BYTES = 64 << 10;

    /** Names the store in messages, e.g. its URL. */
    String name();

    /**
     * The signatures the store holds for {@code digest} ({@code sha256:<hex>}), signature-1 first;
     * empty when none.
     *
     * @throws IOException when the store cannot be read (it does not mean "no signature")
     */
    List<byte[]> signatures(String digest) throws IOException;

    /**
     * Gives the signatures of {@code digest} to {@code each}, signature-1 first, until it answers
     * true (enough were found): a store on the network reads the next one only when it is wanted,
     * as upstream's stores call back for each, so that a slow or broken signature-N does not undo a
     * good signature-1.
     *
     * @throws IOException when the store cannot be read further; what {@code each} was given so far
     *     stands
     */
    default void forEach(String digest, Predicate<byte[]> each) throws IOException {
        for (byte[] s : signatures(digest)) if (each.test(s)) return;
    }

    /** {@code sha256=<hex>}: the digest as a path segment, as the reference's stores lay it out. */
    static String directoryName(String digest) {
        return digest.replaceFirst(":", "=");
    }
}
