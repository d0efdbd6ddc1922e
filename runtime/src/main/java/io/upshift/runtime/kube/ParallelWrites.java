package io.upshift.runtime.kube;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Independent API writes of one controller pass, a few at a time: telling a wave of a hundred nodes
 * their new config takes the time of a dozen round trips instead of a hundred. {@link #run} returns
 * once every write is done.
 */
public final class ParallelWrites implements AutoCloseable {
    private final ExecutorService executor;

    public ParallelWrites(String name, int threads) {
        AtomicInteger n = new AtomicInteger();
        this.executor =
                Executors.newFixedThreadPool(
                        threads,
                        r -> {
                            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        });
    }

    /** Runs every write, waits for all of them, then throws the first failure, if any. */
    public void run(List<Runnable> writes) {
        if (writes.size() <= 1) {
            writes.forEach(Runnable::run);
            return;
        }
        List<Future<?>> futures = new ArrayList<>(writes.size());
        for (Runnable w : writes) futures.add(executor.submit(w));
        RuntimeException first = null;
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (first == null)
                    first =
                            e.getCause() instanceof RuntimeException r
                                    ? r
                                    : new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                futures.forEach(x -> x.cancel(true));
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while writing", e);
            }
        }
        if (first != null) throw first;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
