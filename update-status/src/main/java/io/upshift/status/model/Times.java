package io.upshift.status.model;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Kubernetes timestamps (RFC 3339) to and from {@link Instant}; null and "" mean "not set". */
public final class Times {
    private Times() {}

    public static Instant parse(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return OffsetDateTime.parse(s).toInstant();
        }
    }

    public static String format(Instant t) {
        return t == null ? null : t.toString();
    }

    /** Nanoseconds from a to b, saturating like Go's {@code Time.Sub}. */
    public static long between(Instant a, Instant b) {
        try {
            return Duration.between(a, b).toNanos();
        } catch (ArithmeticException e) {
            return b.isAfter(a) ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
    }

    /** Go's zero time: a timestamp that was never set sorts before every real one. */
    public static final Instant ZERO = Instant.parse("0001-01-01T00:00:00Z");
}
