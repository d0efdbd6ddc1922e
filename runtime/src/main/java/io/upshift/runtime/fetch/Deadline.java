package io.upshift.runtime.fetch;

import io.upshift.base.gofmt.GoDuration;
import java.time.Duration;

/**
 * When a read from the network must be over, and what set that time, for the message that says it
 * was reached: "within 30s, the limit for one answer", "within 2m0s, the limit for verifying a
 * signature". Measured on {@link System#nanoTime()}: a deadline bounds real waiting on a socket,
 * which no injected clock can speed up.
 *
 * @param at the {@link System#nanoTime()} at which it passes
 * @param limit how long it allowed when set
 * @param what what the limit is for, as the message names it ("one answer", "signature store X")
 */
public record Deadline(long at, Duration limit, String what) {

    /** A deadline {@code limit} from now, for {@code what}. */
    public static Deadline in(Duration limit, String what) {
        return new Deadline(System.nanoTime() + limit.toNanos(), limit, what);
    }

    /** The earlier of this deadline and one {@code limit} from now for {@code what}. */
    public Deadline atMost(Duration limit, String what) {
        return earlier(in(limit, what));
    }

    /** The earlier of the two; this one when they fall together. */
    public Deadline earlier(Deadline other) {
        return other.at - at < 0 ? other : this;
    }

    /** Nanoseconds left, zero or less once passed. */
    public long remainingNanos() {
        return at - System.nanoTime();
    }

    public boolean passed() {
        return remainingNanos() <= 0;
    }

    /** "2m0s, the limit for verifying a signature": the words a message ends with. */
    public String describe() {
        return GoDuration.format(limit.toNanos()) + ", the limit for " + what;
    }
}
