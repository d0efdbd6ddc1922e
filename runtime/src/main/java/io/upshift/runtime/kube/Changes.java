package io.upshift.runtime.kube;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Signals that an object in the caches changed, for work that waits on what the caches show (an
 * object to become ready, a status write to come back): a waiter wakes when its object changes,
 * instead of polling, and is not woken by changes of other objects. Objects are named by a key of
 * the caller's choosing ({@link #key}).
 */
public final class Changes {
    /** Per key, the number of changes seen so far; the array is also the key's monitor. */
    private final Map<String, long[]> counts = new ConcurrentHashMap<>();

    /**
     * The key of an object: its apiVersion, kind, namespace (empty for cluster-scoped objects) and
     * name.
     */
    public static String key(String apiVersion, String kind, String namespace, String name) {
        return apiVersion + "/" + kind + "/" + namespace + "/" + name;
    }

    /** The object named {@code key} changed. */
    public void signal(String key) {
        long[] c = counter(key);
        synchronized (c) {
            c[0]++;
            c.notifyAll();
        }
    }

    /**
     * The number of changes of {@code key} so far: pass it to {@link #await} to wait for the next
     * one.
     */
    public long seen(String key) {
        long[] c = counter(key);
        synchronized (c) {
            return c[0];
        }
    }

    /**
     * Waits until {@code key} changed after {@code seen}, at most {@code max}; false when it did
     * not.
     */
    public boolean await(String key, long seen, Duration max) throws InterruptedException {
        long[] c = counter(key);
        long deadline = System.nanoTime() + max.toNanos();
        synchronized (c) {
            while (c[0] == seen) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return false;
                c.wait(Math.max(1, left / 1_000_000));
            }
        }
        return true;
    }

    /**
     * Wakes every waiter, as if each object changed: for a shutdown, so that work waiting on the
     * caches sees it is to stop now rather than at the end of its wait.
     */
    public void signalAll() {
        for (long[] c : counts.values()) {
            synchronized (c) {
                c[0]++;
                c.notifyAll();
            }
        }
    }

    private long[] counter(String key) {
        return counts.computeIfAbsent(key, k -> new long[1]);
    }
}
