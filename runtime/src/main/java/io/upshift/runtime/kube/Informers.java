package io.upshift.runtime.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A controller's informers: each one calls {@code onChange} when an object is added, deleted or
 * changes its resourceVersion (not on resyncs), and all are started together, returning once their
 * caches are filled, or failing after a bound with what kept each unfilled one from filling.
 * Changes seen while the caches fill are not passed on: a run then would see some caches full and
 * others still empty (a pool with no nodes yet); the caller runs once after {@link #start()}
 * instead. Kinds the controller can work without are {@link OptionalInformer}s: the start waits
 * only until each is known to be served, absent or refused.
 */
public final class Informers implements AutoCloseable {
    /**
     * How long a controller's caches may take to fill before its start fails (a real cluster:
     * seconds).
     */
    public static final Duration START_BOUND = Duration.ofMinutes(2);

    static boolean closedClient(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof IllegalStateException && "Client is closed".equals(c.getMessage()))
                return true;
        }
        return false;
    }

    private final Map<SharedIndexInformer<?>, InformerFailures> all = new LinkedHashMap<>();
    private final List<OptionalInformer<?>> optional = new ArrayList<>();
    private final ResourceEventHandler<HasMetadata> handler;
    private final Runnable changed;
    private volatile boolean synced;

    public Informers(Runnable onChange) {
        this.changed =
                () -> {
                    if (synced) onChange.run();
                };
        this.handler =
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(HasMetadata obj) {
                        changed.run();
                    }

                    @Override
                    public void onUpdate(HasMetadata oldObj, HasMetadata newObj) {
                        if (!newObj.getMetadata()
                                .getResourceVersion()
                                .equals(oldObj.getMetadata().getResourceVersion())) {
                            changed.run();
                        }
                    }

                    @Override
                    public void onDelete(HasMetadata obj, boolean deletedFinalStateUnknown) {
                        changed.run();
                    }
                };
    }

    /** Registers a not yet running informer ({@code runnableInformer(0)}). */
    @SuppressWarnings("unchecked")
    public <T extends HasMetadata> SharedIndexInformer<T> add(SharedIndexInformer<T> informer) {
        informer.addEventHandler((ResourceEventHandler<T>) (ResourceEventHandler<?>) handler);
        return cache(informer);
    }

    /**
     * Registers a not yet running informer whose changes do not ask for a run: a cache read on the
     * next run, for objects that change often or that the controller writes itself.
     */
    public <T extends HasMetadata> SharedIndexInformer<T> cache(SharedIndexInformer<T> informer) {
        InformerFailures failures = new InformerFailures(ApiErrors.resource(informer.toString()));
        informer.exceptionHandler(failures);
        all.put(informer, failures);
        return informer;
    }

    /**
     * Registers a not yet started informer of a kind the controller works without; its changes, and
     * its kind becoming served or refused, ask for a run.
     */
    public <T extends HasMetadata> OptionalInformer<T> optional(OptionalInformer<T> informer) {
        informer.onChange(changed);
        optional.add(informer);
        return informer;
    }

    /** {@link #start(Duration)} within {@link #START_BOUND}. */
    public void start() {
        start(START_BOUND);
    }

    /**
     * Starts every informer and waits up to {@code bound} for their caches (and for each optional
     * kind to be known served, absent or refused); changes are passed on from then.
     *
     * @throws IllegalStateException naming each informer that did not sync and why, in one line;
     *     the informers are stopped
     */
    public void start(Duration bound) {
        record Wait(String resource, CompletableFuture<?> future, Supplier<String> last) {}
        List<Wait> waits = new ArrayList<>();
        all.forEach(
                (informer, f) ->
                        waits.add(
                                new Wait(
                                        f.resource(),
                                        informer.start().toCompletableFuture(),
                                        f::last)));
        optional.forEach(o -> waits.add(new Wait(o.resource(), o.start(), o::lastFailure)));
        long deadline = System.nanoTime() + bound.toNanos();
        List<String> unsynced = new ArrayList<>();
        for (Wait w : waits) {
            try {
                w.future().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                String last = w.last().get();
                unsynced.add(w.resource() + ": " + (last != null ? last : "no answer"));
            } catch (ExecutionException e) {
                unsynced.add(w.resource() + ": " + ApiErrors.describe(e.getCause()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new IllegalStateException("interrupted while its caches filled");
            }
        }
        if (!unsynced.isEmpty()) {
            close();
            throw new IllegalStateException(
                    "caches not filled within "
                            + bound.toSeconds()
                            + " s: "
                            + String.join("; ", unsynced));
        }
        synced = true;
    }

    public int size() {
        return all.size() + optional.size();
    }

    /** The API lists objects by name; caches do not keep an order, so restore it. */
    public static <T extends HasMetadata> List<T> byName(SharedIndexInformer<T> informer) {
        List<T> items = new ArrayList<>(informer.getIndexer().list());
        items.sort(Comparator.comparing(o -> o.getMetadata().getName()));
        return items;
    }

    @Override
    public void close() {
        all.keySet().forEach(SharedIndexInformer::stop);
        optional.forEach(OptionalInformer::close);
    }
}
