package io.upshift.runtime.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An informer of a kind a controller works without, as upstream's operators do on a cluster that
 * lacks it (no FeatureGate: the default feature set; no Proxy: no proxy): the OpenShift config
 * kinds a plain Kubernetes cluster does not serve, or that the controller's account may not read.
 * Its {@link Availability} is one of
 *
 * <ul>
 *   <li>{@code PENDING}: not known yet (its first list has not been answered, or failed otherwise
 *       than 403/404);
 *   <li>{@code SYNCED}: served and read; its cache is current;
 *   <li>{@code ABSENT}: the API server does not serve it (404: its CRD is not installed); the
 *       informer stops and the CRD is watched by name, and once it is established the kind is
 *       listed and watched again;
 *   <li>{@code REFUSED}: the account may not list or watch it (403); asked again after 30 s, then
 *       at most every 5 minutes, so that a fixed RBAC rule is seen within minutes.
 * </ul>
 *
 * Each change of availability is one log line naming the kind and what working without it means,
 * and asks for a run ({@code onChange}), as a change of its objects does once it is synced.
 * Starting never waits: {@link #start()} returns a future that completes once the availability is
 * first known.
 */
public final class OptionalInformer<T extends HasMetadata> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OptionalInformer.class);

    /** When a refused kind is asked for again. */
    static final Backoff REFUSED_RETRY =
            new Backoff(Duration.ofSeconds(30), 2, Duration.ofMinutes(5), 0.1);

    private static final ScheduledExecutorService RETRIES =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "optional-informers");
                        t.setDaemon(true);
                        return t;
                    });

    public enum State {
        PENDING,
        SYNCED,
        ABSENT,
        REFUSED
    }

    /**
     * @param detail for ABSENT and REFUSED, the API server's answer in one line; empty otherwise
     */
    public record Availability(State state, String detail) {}

    private final KubernetesClient client;
    private final String resource;
    private final String without;
    private final Supplier<SharedIndexInformer<T>> factory;
    private final Backoff retry;
    private final InformerFailures failures;
    private final CompletableFuture<Void> known = new CompletableFuture<>();
    private final SplittableRandom random = new SplittableRandom();
    private volatile Runnable onChange = () -> {};
    private volatile Availability availability = new Availability(State.PENDING, "");
    // guarded by this
    private SharedIndexInformer<T> informer;
    private SharedIndexInformer<GenericKubernetesResource> crd;
    private boolean crdUnwatchable;
    private ScheduledFuture<?> retryFuture;
    private int generation;
    private int retries;
    private boolean started;
    private boolean closed;

    /**
     * @param resource the kind's plural and group, which is also its CRD's name: {@code
     *     featuregates.config.openshift.io}
     * @param without what the controller does without it, for the log line: {@code the default
     *     feature set}
     * @param factory a new not yet running informer of the kind ({@code runnableInformer(0)}), at
     *     each (re)start
     */
    public OptionalInformer(
            KubernetesClient client,
            String resource,
            String without,
            Supplier<SharedIndexInformer<T>> factory) {
        this(client, resource, without, factory, REFUSED_RETRY);
    }

    OptionalInformer(
            KubernetesClient client,
            String resource,
            String without,
            Supplier<SharedIndexInformer<T>> factory,
            Backoff retry) {
        this.client = client;
        this.resource = resource;
        this.without = without;
        this.factory = factory;
        this.retry = retry;
        this.failures = new InformerFailures(resource);
    }

    /** Called on every change of availability, and of the objects once synced. */
    public OptionalInformer<T> onChange(Runnable onChange) {
        this.onChange = onChange;
        return this;
    }

    /**
     * Starts listing and watching the kind; the future completes once its availability is known (or
     * on close).
     */
    public synchronized CompletableFuture<Void> start() {
        if (!started) {
            started = true;
            attempt();
        }
        return known;
    }

    public String resource() {
        return resource;
    }

    /** What it means to work without the kind, as the log line says it. */
    public String without() {
        return without;
    }

    public Availability availability() {
        return availability;
    }

    /**
     * The last failure other than 403 and 404 (which are the availability), in one line; null when
     * there was none.
     */
    String lastFailure() {
        return failures.last();
    }

    /**
     * The object under {@code key} ({@code name} or {@code namespace/name}) while synced; null
     * otherwise.
     */
    public T get(String key) {
        SharedIndexInformer<T> i = current();
        return i == null ? null : i.getStore().getByKey(key);
    }

    /** Every object while synced; none otherwise. */
    public List<T> list() {
        SharedIndexInformer<T> i = current();
        return i == null ? List.of() : i.getStore().list();
    }

    private synchronized SharedIndexInformer<T> current() {
        return availability.state() == State.SYNCED ? informer : null;
    }

    /**
     * Lists and watches the kind with a fresh informer; the outcome arrives in {@link #synced} or
     * {@link #failed}.
     */
    private synchronized void attempt() {
        if (closed) return;
        int gen = ++generation;
        SharedIndexInformer<T> i = factory.get();
        informer = i;
        i.addEventHandler(
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(T obj) {
                        changed(gen);
                    }

                    @Override
                    public void onUpdate(T oldObj, T newObj) {
                        if (!newObj.getMetadata()
                                .getResourceVersion()
                                .equals(oldObj.getMetadata().getResourceVersion())) changed(gen);
                    }

                    @Override
                    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                        changed(gen);
                    }
                });
        i.exceptionHandler((isStarted, t) -> failed(gen, isStarted, t));
        i.start()
                .whenComplete(
                        (v, t) -> {
                            if (t == null) synced(gen);
                        });
    }

    private void changed(int gen) {
        if (gen == generation && availability.state() == State.SYNCED) onChange.run();
    }

    private void synced(int gen) {
        State before;
        synchronized (this) {
            if (gen != generation || closed) return;
            retries = 0;
            stopCrdWatch();
            before = availability.state();
            availability = new Availability(State.SYNCED, "");
        }
        if (before == State.ABSENT || before == State.REFUSED)
            LOG.info("{}: served and readable now; using it", resource);
        known.complete(null);
        if (before != State.SYNCED) onChange.run();
    }

    /**
     * A failed list or watch: 404 and 403 decide the availability; anything else is retried as by
     * any informer.
     */
    private boolean failed(int gen, boolean isStarted, Throwable t) {
        if (Informers.closedClient(t)) return false;
        int code = ApiErrors.code(t);
        if (code != 404 && code != 403) return failures.retryAfterException(isStarted, t);
        State before;
        String detail = ApiErrors.describe(t);
        Duration next = null;
        synchronized (this) {
            if (gen != generation || closed) return false;
            SharedIndexInformer<T> stale = informer;
            RETRIES.execute(stale::stop);
            before = availability.state();
            availability = new Availability(code == 404 ? State.ABSENT : State.REFUSED, detail);
            if (code == 404 && !crdUnwatchable) {
                watchCrd();
            } else {
                next = scheduleAttempt();
            }
        }
        State now = availability.state();
        if (before != now) {
            if (now == State.ABSENT) {
                LOG.info(
                        "{}: the cluster does not serve this kind (no CRD); working without it: {}",
                        resource,
                        without);
            } else {
                LOG.warn(
                        "{}: forbidden ({}); working without it: {}; asking again in {}",
                        resource,
                        detail,
                        without,
                        InformerFailures.human(next));
            }
        } else {
            LOG.debug("{}: still {} ({})", resource, now, detail);
        }
        LOG.debug("{}: list or watch failed", resource, t);
        known.complete(null);
        if (before != now) onChange.run();
        return false; // this informer is done: the next attempt uses a fresh one
    }

    private synchronized Duration scheduleAttempt() {
        Duration delay = retry.delay(retries++, random);
        if (retryFuture != null) retryFuture.cancel(false);
        retryFuture = RETRIES.schedule(this::attempt, delay.toNanos(), TimeUnit.NANOSECONDS);
        return delay;
    }

    /**
     * Waits for the kind's CRD to be established, by a watch of that one CRD: no request while it
     * is absent.
     */
    private synchronized void watchCrd() {
        if (crd != null) return;
        SharedIndexInformer<GenericKubernetesResource> c =
                client.genericKubernetesResources(
                                "apiextensions.k8s.io/v1", "CustomResourceDefinition")
                        .withName(resource)
                        .runnableInformer(0);
        c.addEventHandler(
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(GenericKubernetesResource obj) {
                        crdSeen(c, obj);
                    }

                    @Override
                    public void onUpdate(
                            GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                        crdSeen(c, newObj);
                    }

                    @Override
                    public void onDelete(
                            GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {}
                });
        InformerFailures crdFailures =
                new InformerFailures("customresourcedefinitions.apiextensions.k8s.io/" + resource);
        c.exceptionHandler(
                (isStarted, t) -> {
                    int code = ApiErrors.code(t);
                    if (code != 403 && code != 404)
                        return crdFailures.retryAfterException(isStarted, t);
                    Duration next;
                    synchronized (this) {
                        if (crd != c || closed) return false;
                        crd = null;
                        crdUnwatchable = true;
                        RETRIES.execute(c::stop);
                        next = scheduleAttempt();
                    }
                    LOG.info(
                            "{}: cannot watch for its CRD ({}); asking for the kind again in {}",
                            resource,
                            ApiErrors.describe(t),
                            InformerFailures.human(next));
                    return false;
                });
        crd = c;
        c.start();
    }

    private void crdSeen(
            SharedIndexInformer<GenericKubernetesResource> c, GenericKubernetesResource obj) {
        if (!established(obj)) return;
        synchronized (this) {
            if (crd != c || closed || availability.state() != State.ABSENT) return;
        }
        LOG.info("{}: its CRD is established; listing it", resource);
        RETRIES.execute(this::attempt);
    }

    @SuppressWarnings("unchecked")
    private static boolean established(GenericKubernetesResource crd) {
        if (!(crd.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
                || !(status.get("conditions") instanceof List<?> conditions)) return false;
        for (Object c : conditions) {
            if (c instanceof Map<?, ?> m
                    && "Established".equals(m.get("type"))
                    && "True".equals(m.get("status"))) return true;
        }
        return false;
    }

    private void stopCrdWatch() {
        if (crd != null) {
            SharedIndexInformer<GenericKubernetesResource> c = crd;
            crd = null;
            RETRIES.execute(c::stop);
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
            if (retryFuture != null) retryFuture.cancel(false);
            if (informer != null) informer.stop();
            stopCrdWatch();
        }
        known.complete(null);
    }
}
