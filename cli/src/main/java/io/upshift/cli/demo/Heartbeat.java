package io.upshift.cli.demo;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The demo's lines while it gets ready: whenever a step goes quiet for {@code quiet}, a line says
 * what it is doing and for how long, so that a user waiting on a long step (the first image build,
 * an install on a busy machine) sees it move. Every line of the setup goes through {@link
 * #println}, from any thread.
 */
final class Heartbeat implements AutoCloseable {

    private final PrintWriter out;
    private final long quietNanos;
    private final ScheduledExecutorService timer;
    private long lastNanos = System.nanoTime();
    private long stepNanos = lastNanos;
    private Supplier<String> step;

    Heartbeat(PrintWriter out, Duration quiet) {
        this.out = out;
        this.quietNanos = quiet.toNanos();
        this.timer =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "demo-heartbeat");
                            t.setDaemon(true);
                            return t;
                        });
        // check() catches a failed read; the timer ends with close()
        var unused = timer.scheduleWithFixedDelay(this::check, 1, 1, TimeUnit.SECONDS);
    }

    synchronized void println(String line) {
        out.println(line);
        out.flush();
        lastNanos = System.nanoTime();
    }

    /** The step under way from now, in words a quiet moment repeats ("installing 4.18.1: ..."). */
    synchronized void step(Supplier<String> what) {
        step = what;
        stepNanos = System.nanoTime();
    }

    private void check() {
        Supplier<String> what;
        long since;
        synchronized (this) {
            if (step == null || System.nanoTime() - lastNanos < quietNanos) return;
            what = step;
            since = System.nanoTime() - stepNanos;
        }
        String words;
        try {
            words = what.get();
        } catch (RuntimeException e) { // a read of the cluster that failed: still say the step
            words = null;
        }
        if (words != null) println(String.format("  ... %s (%.0f s)", words, since / 1e9));
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
