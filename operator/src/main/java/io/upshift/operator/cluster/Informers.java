package io.upshift.operator.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A controller's informers: each one calls {@code onChange} when an object is added, deleted or changes its
 * resourceVersion (not on resyncs), and all are started together, returning once their caches are filled. Changes
 * seen while the caches fill are not passed on: a run then would see some caches full and others still empty (a
 * pool with no nodes yet); the caller runs once after {@link #start()} instead.
 */
public final class Informers implements AutoCloseable {
    /**
     * Informers keep trying after an API error, as client-go's do (with the client's backoff): fabric8's default gives
     * an informer up for good on any error before its first sync and on a failed watch, which leaves a cache stale
     * for the rest of the process after one refused list. Only a closed client ends it.
     */
    public static final ExceptionHandler RETRY = (started, t) -> !closedClient(t);

    private static boolean closedClient(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof IllegalStateException && "Client is closed".equals(c.getMessage())) return true;
        }
        return false;
    }

    private final List<SharedIndexInformer<?>> all = new ArrayList<>();
    private final ResourceEventHandler<HasMetadata> handler;
    private volatile boolean synced;

    public Informers(Runnable onChange) {
        Runnable changed = () -> {
            if (synced) onChange.run();
        };
        this.handler = new ResourceEventHandler<>() {
            @Override
            public void onAdd(HasMetadata obj) {
                changed.run();
            }

            @Override
            public void onUpdate(HasMetadata oldObj, HasMetadata newObj) {
                if (!newObj.getMetadata().getResourceVersion().equals(oldObj.getMetadata().getResourceVersion())) {
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
        informer.exceptionHandler(RETRY);
        all.add(informer);
        return informer;
    }

    /**
     * Registers a not yet running informer whose changes do not ask for a run: a cache read on the next run, for
     * objects that change often or that the controller writes itself.
     */
    public <T extends HasMetadata> SharedIndexInformer<T> cache(SharedIndexInformer<T> informer) {
        informer.exceptionHandler(RETRY);
        all.add(informer);
        return informer;
    }

    /** Starts every informer and waits up to two minutes for their caches; changes are passed on from then. */
    public void start() {
        all.forEach(SharedIndexInformer::run);
        for (SharedIndexInformer<?> informer : all) {
            try {
                informer.start().toCompletableFuture().get(2, TimeUnit.MINUTES);
            } catch (Exception e) {
                throw new IllegalStateException("informer did not sync: " + e.getMessage(), e);
            }
        }
        synced = true;
    }

    public int size() {
        return all.size();
    }

    /** The API lists objects by name; caches do not keep an order, so restore it. */
    public static <T extends HasMetadata> List<T> byName(SharedIndexInformer<T> informer) {
        List<T> items = new ArrayList<>(informer.getIndexer().list());
        items.sort(Comparator.comparing(o -> o.getMetadata().getName()));
        return items;
    }

    @Override
    public void close() {
        all.forEach(SharedIndexInformer::stop);
    }
}
