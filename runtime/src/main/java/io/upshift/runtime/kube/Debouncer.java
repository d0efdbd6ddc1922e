package io.upshift.runtime.kube;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an action on one thread after something changed, at most {@code burst} times per interval
 * however often things change: a change after a quiet spell runs at once, and a stream of events
 * costs {@code burst} runs per interval, not one per event.
 */
public final class Debouncer implements AutoCloseable {
    private final ScheduledExecutorService executor;
    private final Runnable action;
    private final long intervalNanos;
    private final AtomicBoolean pending = new AtomicBoolean();

    /** When the last {@code burst} runs started (System.nanoTime), oldest at {@link #next}. */
    private final long[] runs;

    private int next;

    /** At most one run per interval. */
    public Debouncer(String threadName, Duration interval, Runnable action) {
        this(threadName, interval, 1, action);
    }

    /**
     * At most {@code burst} runs in any interval: a change that closely follows another (a status
     * written just after an annotation) is still seen at once.
     */
    public Debouncer(String threadName, Duration interval, int burst, Runnable action) {
        if (burst < 1) throw new IllegalArgumentException("burst must be at least 1: " + burst);
        ScheduledThreadPoolExecutor executor =
                new ScheduledThreadPoolExecutor(
                        1,
                        r -> {
                            Thread t = new Thread(r, threadName);
                            t.setDaemon(true);
                            return t;
                        });
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(
                false); // nothing new starts once closed
        this.executor = executor;
        this.action = action;
        this.intervalNanos = interval.toNanos();
        this.runs = new long[burst];
        Arrays.fill(runs, System.nanoTime() - intervalNanos);
    }

    /** Asks for a run; runs already asked for and not yet started absorb this one. */
    // the actions are the controllers' *Safely passes, which catch their own failures
    @SuppressWarnings("FutureReturnValueIgnored")
    public void trigger() {
        if (executor.isShutdown())
            return; // closed: events still arriving from informers are dropped
        if (pending.compareAndSet(false, true)) {
            long wait;
            synchronized (runs) {
                wait = Math.max(0, runs[next] + intervalNanos - System.nanoTime());
            }
            executor.schedule(this::run, wait, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Asks for a run after {@code delay}: for a decision that changes with time alone at a known
     * moment (a wait that ends).
     */
    @SuppressWarnings("FutureReturnValueIgnored") // a timer that only triggers
    public void triggerIn(Duration delay) {
        if (executor.isShutdown()) return;
        executor.schedule(this::trigger, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    }

    /** Also run every period even without events: some insights depend on time alone. */
    @SuppressWarnings("FutureReturnValueIgnored") // a timer that only triggers
    public void every(Duration period) {
        executor.scheduleWithFixedDelay(
                this::trigger, period.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void run() {
        pending.set(false);
        synchronized (runs) {
            runs[next] = System.nanoTime();
            next = (next + 1) % runs.length;
        }
        action.run();
    }

    @Override
    /*
     * Lets a run in progress finish (up to 5 s) rather than interrupting it mid-request, then
     * stops; runs not yet started are dropped.
     */
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) executor.shutdownNow();
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
