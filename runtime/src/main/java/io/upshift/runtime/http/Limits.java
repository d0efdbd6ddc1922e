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
 * @param maxConnections connections the server holds at once; one more is answered 503 and closed
 *     ({@link ConnectionCap}); 0 for no cap
 */
public record Limits(
        int maxRequestLine,
        int maxHeaderSize,
        int requestsPerSecond,
        Duration idleTimeout,
        int maxConnections) {

    /**
     * 8 KiB request lines and 16 KiB header blocks (nginx's large header buffers, twice for
     * headers: bearer tokens), 5,000 requests a second on one connection, 30 s idle, 16,384
     * connections (a file each, well under a container's usual limit of open files).
     */
    public static final Limits DEFAULT =
            new Limits(8192, 16384, 5000, Duration.ofSeconds(30), 16384);

    public Limits {
        if (maxRequestLine < 64 || maxHeaderSize < 256)
            throw new IllegalArgumentException(
                    "a request line of at least 64 bytes and headers of at least 256");
        if (requestsPerSecond < 0)
            throw new IllegalArgumentException("requests a second cannot be negative");
        if (idleTimeout.isNegative() || idleTimeout.isZero())
            throw new IllegalArgumentException("the idle timeout must be positive");
        if (maxConnections < 0)
            throw new IllegalArgumentException("the connection cap cannot be negative");
    }

    public Limits withRequestsPerSecond(int perSecond) {
        return new Limits(maxRequestLine, maxHeaderSize, perSecond, idleTimeout, maxConnections);
    }

    public Limits withIdleTimeout(Duration timeout) {
        return new Limits(
                maxRequestLine, maxHeaderSize, requestsPerSecond, timeout, maxConnections);
    }

    public Limits withMaxConnections(int max) {
        return new Limits(maxRequestLine, maxHeaderSize, requestsPerSecond, idleTimeout, max);
    }
}
