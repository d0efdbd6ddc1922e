package io.upshift.runtime.kube;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with jitter: the n-th retry (n from 0) waits {@code initial × factor^n}, at
 * most {@code cap}, stretched by a random share of up to {@code jitter} so that retries of many
 * clients do not fall in step.
 */
public record Backoff(Duration initial, double factor, Duration cap, double jitter) {

    /**
     * The work queue's default: 5 ms doubling up to 1000 s, as client-go's per-item controller rate
     * limiter.
     */
    public static Backoff controller() {
        return new Backoff(Duration.ofMillis(5), 2, Duration.ofSeconds(1000), 0.1);
    }

    public Duration delay(int failures, RandomGenerator random) {
        double nanos = initial.toNanos() * Math.pow(factor, Math.min(failures, 64));
        nanos = Math.min(nanos, (double) cap.toNanos());
        return Duration.ofNanos((long) (nanos * (1 + jitter * random.nextDouble())));
    }
}
