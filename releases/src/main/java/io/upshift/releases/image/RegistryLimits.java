package io.upshift.releases.image;

import java.time.Duration;

/**
 * How much and how long a registry's answers may take, each from its request to its last byte.
 *
 * @param maxManifest a manifest (or manifest list): they are small, a larger answer is not one
 * @param maxToken a token service's answer: a few KiB of JSON
 * @param maxAnswer anything else a registry answers a push (an upload's location, an error)
 * @param exchange one manifest, token or other exchange; one of jib's push operations but an upload
 * @param blobRate a blob may take {@code exchange} and its size at this rate (bytes a second): a
 *     registry slower than that fails the pull rather than hold it for ever
 */
record RegistryLimits(
        long maxManifest, long maxToken, long maxAnswer, Duration exchange, long blobRate) {

    /** 4 MiB, 1 MiB, 1 MiB, a minute, 1 Mbit/s: a 100 MB layer may take 14 minutes. */
    static final RegistryLimits DEFAULT =
            new RegistryLimits(4 << 20, 1 << 20, 1 << 20, Duration.ofSeconds(60), 128 << 10);

    /** A blob whose size its manifest does not give is read to this at most. */
    static final long MAX_UNSIZED_BLOB = 4L << 30;

    /** How long a blob of {@code size} bytes may take. */
    Duration blobDeadline(long size) {
        long s = size < 0 ? MAX_UNSIZED_BLOB : size;
        return exchange.plusSeconds((s + blobRate - 1) / blobRate);
    }
}
