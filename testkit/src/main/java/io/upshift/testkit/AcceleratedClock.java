package io.upshift.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock that runs {@code factor} times faster than the wall's, from {@code start}: for tests
 * of what a controller does over minutes, in seconds, without waiting for wall-clock time; a test
 * may also {@link #jump} it ahead.
 */
public final class AcceleratedClock extends Clock {
    private final Instant start;
    private final long startNanos = System.nanoTime();
    private final double factor;
    private volatile Duration jumped = Duration.ZERO;

    public AcceleratedClock(Instant start, double factor) {
        this.start = start;
        this.factor = factor;
    }

    /**
     * Moves the clock ahead by {@code by} at once (it runs on from there): hours of waiting for a
     * window, say, in no time.
     */
    public void jump(Duration by) {
        jumped = jumped.plus(by);
    }

    /** How much of this clock's time has passed since {@code since}. */
    public Duration since(Instant since) {
        return Duration.between(since, instant());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return start.plus(jumped).plusNanos((long) ((System.nanoTime() - startNanos) * factor));
    }
}
