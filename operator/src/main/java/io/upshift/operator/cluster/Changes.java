package io.upshift.operator.cluster;

import java.time.Duration;

/**
 * A signal that something in the caches changed, for work that waits on what the caches show (an object to become
 * ready, a status write to come back): waiters wake on each change instead of polling.
 */
public final class Changes {
    private long count;

    /** Something changed. */
    public synchronized void signal() {
        count++;
        notifyAll();
    }

    /** The number of changes so far: pass it to {@link #await} to wait for the next one. */
    public synchronized long seen() {
        return count;
    }

    /** Waits until a change after {@code seen}, at most {@code max}; false when none came. */
    public synchronized boolean await(long seen, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (count == seen) {
            long left = deadline - System.nanoTime();
            if (left <= 0) return false;
            wait(Math.max(1, left / 1_000_000), 0);
        }
        return true;
    }
}
