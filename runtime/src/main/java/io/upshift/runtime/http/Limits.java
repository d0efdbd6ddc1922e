package io.upshift.runtime.http;

import java.time.Duration;

/**
 * What one connection may ask of a server.
 *
 * @param maxRequestLine the longest request line (method, target, version) in bytes: a longer one
 *     is answered 414 and the connection closed
 * @param maxHeaderSize the largest header block in bytes: a larger one is answered 431 and the
 *     connection closed
 * @param requestsPerSecond requests a connection may make a second (bursts of as many); more are
 *     answered 429 with {@code Retry-After}; 0 for no limit
 * @param idleTimeout how long a connection may take to send a whole request head, from its opening
 *     or from its last answer: a keep-alive connection left idle and a client trickling its headers
 *     (slowloris) are both closed after it
 */
public record Limits(
        int maxRequestLine, int maxHeaderSize, int requestsPerSecond, Duration idleTimeout) {

    /**
     * 8 KiB request lines and 16 KiB header blocks (nginx's large header buffers, twice for
     * headers: bearer tokens), 5,000 requests a second on one connection, 30 s idle.
     */
    public static final Limits DEFAULT = new Limits(8192, 16384, 5000, Duration.ofSeconds(30));

    public Limits {
        if (maxRequestLine < 64 || maxHeaderSize < 256)
            throw new IllegalArgumentException(
                    "a request line of at least 64 bytes and headers of at least 256");
        if (requestsPerSecond < 0)
            throw new IllegalArgumentException("requests a second cannot be negative");
        if (idleTimeout.isNegative() || idleTimeout.isZero())
            throw new IllegalArgumentException("the idle timeout must be positive");
    }

    public Limits withRequestsPerSecond(int perSecond) {
        return new Limits(maxRequestLine, maxHeaderSize, perSecond, idleTimeout);
    }

    public Limits withIdleTimeout(Duration timeout) {
        return new Limits(maxRequestLine, maxHeaderSize, requestsPerSecond, timeout);
    }
}
