package io.upshift.runtime.kube;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A controller's work queue, as client-go's rate-limited work queue: a key waits at most once
 * however often it is added; a key being processed is not handed out again until {@link #done}, and
 * comes back then if it was added meanwhile; a failed key comes back after its backoff ({@link
 * #addRateLimited}), which grows with each failure until {@link #forget}.
 */
public final class WorkQueue<K> implements AutoCloseable {
    private final Backoff backoff;
    private final SplittableRandom random = new SplittableRandom();
    private final ScheduledThreadPoolExecutor timers;
    private final Set<K> queue = new LinkedHashSet<>();
    private final Set<K> processing = new HashSet<>();
    private final Set<K> dirty = new HashSet<>();
    private final Map<K, Integer> failures = new HashMap<>();
    private boolean closed;

    public WorkQueue(String name, Backoff backoff) {
        this.backoff = backoff;
        this.timers =
                new ScheduledThreadPoolExecutor(
                        1,
                        r -> {
                            Thread t = new Thread(r, name + "-queue-timer");
                            t.setDaemon(true);
                            return t;
                        });
        timers.setRemoveOnCancelPolicy(true);
    }

    /** Asks for {@code key} to be processed now. */
    public synchronized void add(K key) {
        if (closed) return;
        if (processing.contains(key)) {
            dirty.add(key);
            return;
        }
        if (queue.add(key)) notifyAll();
    }

    /** Asks for {@code key} to be processed after {@code delay}. */
    public void addAfter(K key, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            add(key);
            return;
        }
        synchronized (this) {
            if (closed) return;
            // a timer that only adds the key
            var unused = timers.schedule(() -> add(key), delay.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Processing {@code key} failed: it comes back after a backoff that grows with each failure in
     * a row.
     */
    public Duration addRateLimited(K key) {
        Duration delay;
        synchronized (this) {
            int n = failures.merge(key, 1, Integer::sum);
            delay = backoff.delay(n - 1, random);
        }
        addAfter(key, delay);
        return delay;
    }

    /**
     * Processing {@code key} succeeded: its next failure starts the backoff again from the
     * beginning.
     */
    public synchronized void forget(K key) {
        failures.remove(key);
    }

    /**
     * The next key to process; blocks until there is one. Call {@link #done} when finished with it.
     */
    public synchronized K take() throws InterruptedException {
        while (queue.isEmpty()) {
            if (closed) throw new InterruptedException("queue closed");
            wait();
        }
        K key = queue.iterator().next();
        queue.remove(key);
        processing.add(key);
        return key;
    }

    public synchronized void done(K key) {
        processing.remove(key);
        if (dirty.remove(key) && !closed && queue.add(key)) notifyAll();
    }

    @Override
    public synchronized void close() {
        closed = true;
        timers.shutdownNow();
        notifyAll();
    }
}
