package io.upshift.runtime.http;

/**
 * One connection's request budget, a token bucket: {@code perSecond} requests a second, in bursts
 * of as many. The time is given (nanoseconds of a monotonic clock); one connection's event loop
 * uses it, so it is not thread-safe.
 */
final class RequestRate {
    private final double perNano;
    private final double burst;
    private double tokens;
    private long last;

    /**
     * @param perSecond 0 for no limit
     */
    RequestRate(int perSecond, long now) {
        this.perNano = perSecond / 1e9;
        this.burst = perSecond;
        this.tokens = perSecond;
        this.last = now;
    }

    /** Whether one more request may be answered at {@code now}; takes it from the budget if so. */
    boolean take(long now) {
        if (burst == 0) return true;
        if (now > last) {
            tokens = Math.min(burst, tokens + (now - last) * perNano);
            last = now;
        }
        if (tokens < 1) return false;
        tokens -= 1;
        return true;
    }
}
