package io.upshift.status.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.upshift.api.update.insight.InsightKinds;
import io.upshift.runtime.kube.Informers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The insight objects as the API server holds them: the informers' caches, with this controller's
 * own writes laid over them until the caches show them (client-go's mutation cache, in small).
 * After a burst of writes the caches lag; compared with them, the next evaluation would write again
 * what it just wrote, against a stale resourceVersion. Used from the evaluation's thread only.
 */
final class InsightStore {
    private final List<SharedIndexInformer<? extends HasMetadata>> informers;

    /** What the server answered to our creates and updates, by key. */
    private final Map<String, HasMetadata> written = new HashMap<>();

    /** What we deleted, by key. */
    private final Map<String, HasMetadata> deleted = new HashMap<>();

    /** Registers an informer per insight kind; a change by anyone asks for an evaluation. */
    InsightStore(KubernetesClient client, Informers registry) {
        List<SharedIndexInformer<? extends HasMetadata>> all = new ArrayList<>();
        for (Class<? extends HasMetadata> kind : InsightKinds.ALL) {
            all.add(registry.add(client.resources(kind).runnableInformer(0)));
        }
        informers = List.copyOf(all);
    }

    /** Insight objects are cluster-scoped: kind and name name one. */
    static String key(HasMetadata o) {
        return o.getKind() + "/" + o.getMetadata().getName();
    }

    /** Every insight object by key, our latest writes included. */
    Map<String, HasMetadata> current() {
        Map<String, HasMetadata> out = new HashMap<>();
        for (SharedIndexInformer<? extends HasMetadata> informer : informers) {
            for (HasMetadata o : informer.getIndexer().list()) {
                out.put(key(o), o);
            }
        }
        for (Iterator<Map.Entry<String, HasMetadata>> it = written.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<String, HasMetadata> w = it.next();
            HasMetadata cached = out.get(w.getKey());
            if (cached != null && !olderThan(cached, w.getValue())) {
                it.remove(); // the cache has caught up (or someone wrote after us)
            } else {
                out.put(w.getKey(), w.getValue());
            }
        }
        for (Iterator<Map.Entry<String, HasMetadata>> it = deleted.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<String, HasMetadata> d = it.next();
            HasMetadata cached = out.get(d.getKey());
            if (cached == null || olderThan(d.getValue(), cached)) {
                it.remove(); // gone from the cache, or made anew since
            } else {
                out.remove(d.getKey());
            }
        }
        return out;
    }

    void wrote(HasMetadata answer) {
        deleted.remove(key(answer));
        written.put(key(answer), answer);
    }

    void deleted(HasMetadata object) {
        written.remove(key(object));
        deleted.put(key(object), object);
    }

    /** After a refused write: trust the cache again for this object. */
    void forget(HasMetadata object) {
        written.remove(key(object));
        deleted.remove(key(object));
    }

    /**
     * Of what we wrote last and what the cache holds, the newer (the cache's on a tie); null when
     * neither is.
     */
    static <T extends HasMetadata> T newer(T written, T cached) {
        if (written == null || cached == null) {
            return written != null ? written : cached;
        }
        return olderThan(cached, written) ? written : cached;
    }

    /**
     * Whether {@code a} is an older version than {@code b}. Resource versions are opaque to clients
     * in general; the API servers here count them up, and where one is not a number the cache is
     * trusted.
     */
    private static boolean olderThan(HasMetadata a, HasMetadata b) {
        try {
            return Long.parseLong(a.getMetadata().getResourceVersion())
                    < Long.parseLong(b.getMetadata().getResourceVersion());
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
