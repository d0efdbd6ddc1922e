package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.upshift.releases.manifest.Manifest;
import io.upshift.runtime.kube.ApiErrors;
import io.upshift.runtime.kube.Changes;
import io.upshift.runtime.kube.InformerFailures;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads of the objects a payload applies, served from informer caches (one per kind, started on
 * first use and waited for up to 10 s) instead of one API request per object per pass; every change
 * they see is signalled to {@code changes} under the object's key, so that a task waiting for an
 * object wakes at once. A kind that cannot be watched yet (its CRD is not established, or the
 * controller may not list it), or whose watch is down, is read from the API directly while its
 * informer keeps trying. Writes never go through here.
 */
final class LiveCache implements ObjectReader, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LiveCache.class);

    /** How long a first use of a kind waits for its informer's first list, which may never come. */
    private static final Duration FIRST_LIST = Duration.ofSeconds(30);

    private final KubernetesClient client;
    private final Map<String, SharedIndexInformer<GenericKubernetesResource>> informers =
            new ConcurrentHashMap<>();
    private final ResourceEventHandler<GenericKubernetesResource> signal;

    LiveCache(KubernetesClient client, Changes changes) {
        this(client, changes, key -> {});
    }

    /**
     * @param deleted told the key of every object its informers see deleted
     */
    LiveCache(KubernetesClient client, Changes changes, Consumer<String> deleted) {
        this.client = client;
        this.signal =
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(GenericKubernetesResource obj) {
                        changes.signal(key(obj));
                    }

                    @Override
                    public void onUpdate(
                            GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                        changes.signal(key(newObj));
                    }

                    @Override
                    public void onDelete(
                            GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
                        changes.signal(key(obj));
                        deleted.accept(key(obj));
                    }
                };
    }

    /** The key {@link Changes} knows the manifest's object by. */
    static String key(Manifest m) {
        return Changes.key(m.apiVersion(), m.kind(), m.namespace(), m.name());
    }

    private static String key(GenericKubernetesResource o) {
        String ns = o.getMetadata().getNamespace();
        return Changes.key(
                o.getApiVersion(), o.getKind(), ns == null ? "" : ns, o.getMetadata().getName());
    }

    /** The object as last seen by its kind's informer; from the API when the kind has none. */
    @Override
    public GenericKubernetesResource get(Manifest m) {
        return get(m.apiVersion(), m.kind(), m.namespace(), m.name());
    }

    private GenericKubernetesResource get(
            String apiVersion, String kind, String namespace, String name) {
        SharedIndexInformer<GenericKubernetesResource> informer =
                informer(apiVersion, kind, !namespace.isEmpty());
        // a cache whose watch is down may be stale: read the API until the watch is back
        if (informer == null || !informer.isWatching()) {
            var resources =
                    client.genericKubernetesResources(
                            LiveObjects.context(apiVersion, kind, !namespace.isEmpty()));
            return namespace.isEmpty()
                    ? resources.withName(name).get()
                    : resources.inNamespace(namespace).withName(name).get();
        }
        return informer.getStore().getByKey(namespace.isEmpty() ? name : namespace + "/" + name);
    }

    private SharedIndexInformer<GenericKubernetesResource> informer(
            String apiVersion, String kind, boolean namespaced) {
        String gvk = apiVersion + "/" + kind;
        SharedIndexInformer<GenericKubernetesResource> existing = informers.get(gvk);
        if (existing != null) return existing;
        try {
            var resources =
                    client.genericKubernetesResources(
                            LiveObjects.context(apiVersion, kind, namespaced));
            SharedIndexInformer<GenericKubernetesResource> informer =
                    namespaced
                            ? resources.inAnyNamespace().runnableInformer(0)
                            : resources.runnableInformer(0);
            informer.addEventHandler(signal);
            // a list refused (403: the controller's role does not cover the kind) or failing is
            // retried in the
            // background, each failure logged in one line; meanwhile the kind is read from the API,
            // whose answer the
            // task reports, instead of waiting here for a list that may never be allowed
            CompletableFuture<Throwable> failed = new CompletableFuture<>();
            InformerFailures failures =
                    new InformerFailures(ApiErrors.resource(informer.toString()));
            informer.exceptionHandler(
                    (started, t) -> {
                        failed.complete(t);
                        return failures.retryAfterException(started, t);
                    });
            CompletableFuture<Void> synced = informer.start().toCompletableFuture();
            SharedIndexInformer<GenericKubernetesResource> raced =
                    informers.putIfAbsent(gvk, informer);
            if (raced != null) {
                informer.close();
                return raced;
            }
            try {
                CompletableFuture.anyOf(synced, failed)
                        .get(FIRST_LIST.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // not filled yet: read from the API until it is
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return informer;
        } catch (KubernetesClientException e) {
            LOG.info("{}: no informer yet, reading from the API: {}", gvk, ApiErrors.describe(e));
            return null;
        }
    }

    @Override
    public void close() {
        informers.values().forEach(SharedIndexInformer::close);
        informers.clear();
    }
}
