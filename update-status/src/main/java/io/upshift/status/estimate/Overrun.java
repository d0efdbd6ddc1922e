package io.upshift.status.estimate;

import java.time.Duration;
import java.time.Instant;

/**
 * Predicted ends that stay put between events. An estimate made from recorded start times does not
 * move while nothing happens, so the status controller has nothing to write; only something that
 * has already taken longer than expected needs "now", and then its end moves on in steps of a
 * quarter of what it was expected to take (at least half a second), not with every evaluation.
 */
final class Overrun {
    static final Duration MIN_STEP = Duration.ofMillis(500);

    private Overrun() {}

    /** The end of something started at {@code start} and expected to take {@code expected}. */
    static Instant end(Instant start, Duration expected, Instant now) {
        return notBefore(start.plus(expected), now, step(expected));
    }

    /**
     * {@code anchor} unless it is past; else the first {@code anchor + k × step} after {@code now}.
     */
    static Instant notBefore(Instant anchor, Instant now, Duration step) {
        if (!anchor.isBefore(now)) {
            return anchor;
        }
        long stepNanos = Math.max(1, step.toNanos());
        long late = Duration.between(anchor, now).toNanos();
        return anchor.plusNanos((late / stepNanos + 1) * stepNanos);
    }

    static Duration step(Duration expected) {
        Duration quarter = expected.dividedBy(4);
        return quarter.compareTo(MIN_STEP) < 0 ? MIN_STEP : quarter;
    }
}
