package io.upshift.operator.cvo;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.upshift.core.payload.Manifest;
import io.upshift.operator.cluster.Changes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads of the objects a payload applies, served from informer caches (one per kind, started on first use and
 * waited for until filled) instead of one API request per object per pass; every change they see is signalled to
 * {@code changes} under the object's key, so that a task waiting for an object wakes at once. A kind that cannot be watched yet (its CRD is not
 * established), or whose watch is down, is read from the API directly. Writes never go through here.
 */
final class LiveCache implements ObjectReader, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LiveCache.class);

    private final KubernetesClient client;
    private final Changes changes;
    private final Map<String, SharedIndexInformer<GenericKubernetesResource>> informers = new ConcurrentHashMap<>();
    private final ResourceEventHandler<GenericKubernetesResource> signal;

    LiveCache(KubernetesClient client, Changes changes) {
        this.client = client;
        this.changes = changes;
        this.signal = new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource obj) {
                changes.signal(key(obj));
            }

            @Override
            public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                changes.signal(key(newObj));
            }

            @Override
            public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
                changes.signal(key(obj));
            }
        };
    }

    /** The key {@link Changes} knows the manifest's object by. */
    static String key(Manifest m) {
        return Changes.key(m.apiVersion(), m.kind(), m.namespace(), m.name());
    }

    private static String key(GenericKubernetesResource o) {
        String ns = o.getMetadata().getNamespace();
        return Changes.key(o.getApiVersion(), o.getKind(), ns == null ? "" : ns, o.getMetadata().getName());
    }

    /** The object as last seen by its kind's informer; from the API when the kind has none. */
    @Override
    public GenericKubernetesResource get(Manifest m) {
        SharedIndexInformer<GenericKubernetesResource> informer = informer(m);
        // a cache whose watch is down may be stale: read the API until the watch is back
        if (informer == null || !informer.isWatching()) return LiveObjects.of(client, m).get();
        String key = m.namespace().isEmpty() ? m.name() : m.namespace() + "/" + m.name();
        return informer.getStore().getByKey(key);
    }

    private SharedIndexInformer<GenericKubernetesResource> informer(Manifest m) {
        String gvk = m.apiVersion() + "/" + m.kind();
        SharedIndexInformer<GenericKubernetesResource> existing = informers.get(gvk);
        if (existing != null) return existing;
        try {
            var resources = client.genericKubernetesResources(LiveObjects.context(m));
            SharedIndexInformer<GenericKubernetesResource> informer = m.namespace().isEmpty() ? resources.inform(signal)
                    : resources.inAnyNamespace().inform(signal);
            SharedIndexInformer<GenericKubernetesResource> raced = informers.putIfAbsent(gvk, informer);
            if (raced != null) {
                informer.close();
                return raced;
            }
            return informer;
        } catch (KubernetesClientException e) {
            LOG.info("{}: no informer yet, reading from the API: {}", gvk, e.getMessage());
            return null;
        }
    }

    @Override
    public void close() {
        informers.values().forEach(SharedIndexInformer::close);
        informers.clear();
    }
}
