package io.upshift.runtime.fetch;

import java.io.IOException;
import java.net.URI;

/**
 * An answer refused because it went past its bound: more bytes than its limit, or not complete
 * before its deadline. The message names the host, the request and the limit.
 */
public final class BoundExceeded extends IOException {

    /** Which bound was reached. */
    public enum Kind {
        TOO_LARGE,
        TOO_SLOW
    }

    private final Kind kind;
    private final String host;

    private BoundExceeded(Kind kind, String host, String message) {
        super(message);
        this.kind = kind;
        this.host = host;
    }

    /** More than {@code maxBytes} in the answer to {@code method uri}. */
    public static BoundExceeded tooLarge(String method, URI uri, long maxBytes) {
        return tooLarge(uri.getHost(), method + " " + uri, maxBytes);
    }

    /** The answer to {@code method uri} not complete before {@code deadline}. */
    public static BoundExceeded tooSlow(String method, URI uri, Deadline deadline) {
        return new BoundExceeded(
                Kind.TOO_SLOW,
                uri.getHost(),
                uri.getHost()
                        + ": no complete answer to "
                        + method
                        + " "
                        + uri
                        + " within "
                        + deadline.describe());
    }

    /** {@code what}, an exchange with {@code host} or several, not over before {@code deadline}. */
    public static BoundExceeded notDone(String host, String what, Deadline deadline) {
        return new BoundExceeded(
                Kind.TOO_SLOW,
                host,
                host + ": " + what + " did not finish within " + deadline.describe());
    }

    /** More than {@code maxBytes} in an answer of {@code host} to {@code request}. */
    public static BoundExceeded tooLarge(String host, String request, long maxBytes) {
        return new BoundExceeded(
                Kind.TOO_LARGE,
                host,
                host
                        + ": the answer to "
                        + request
                        + " is larger than "
                        + bytes(maxBytes)
                        + ", its limit");
    }

    /** Nothing more may be read of {@code what} at {@code host}: {@code deadline} has passed. */
    public static BoundExceeded passed(String host, String what, Deadline deadline) {
        return new BoundExceeded(
                Kind.TOO_SLOW, host, what + " not read: past " + deadline.describe());
    }

    public Kind kind() {
        return kind;
    }

    /** The host that answered too much or too slowly. */
    public String host() {
        return host;
    }

    /** "65536 bytes (64 KiB)": exact, and readable. */
    static String bytes(long n) {
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        long unit = 1024;
        for (String u : units) {
            if (n >= unit && n % unit == 0 && (n / unit < 1024 || u.equals("TiB"))) {
                return n + " bytes (" + (n / unit) + " " + u + ")";
            }
            unit *= 1024;
        }
        return n + " bytes";
    }
}
