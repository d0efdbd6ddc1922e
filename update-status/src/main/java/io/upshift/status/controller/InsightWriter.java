package io.upshift.status.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.api.json.Mappers;
import io.upshift.status.model.StatusObjects;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the insight objects to what an evaluation wants: creates the missing, updates those whose
 * status, acquired time or owner differ (an update conditional on the resourceVersion compared
 * with), deletes those no insight wants any more (their subject is gone), and writes nothing else.
 * Labels and annotations others put on an object are kept; its owner references are the
 * controller's.
 */
final class InsightWriter {
    private static final Logger LOG = LoggerFactory.getLogger(InsightWriter.class);
    private static final ObjectMapper JSON = Mappers.JSON;

    private final KubernetesClient client;
    private final InsightStore store;
    private final AtomicLong writes;

    InsightWriter(KubernetesClient client, InsightStore store, AtomicLong writes) {
        this.client = client;
        this.store = store;
        this.writes = writes;
    }

    /**
     * @param current the objects the store holds, by key, as this evaluation read them
     */
    void sync(List<HasMetadata> desired, Map<String, HasMetadata> current) {
        int created = 0, updated = 0, deleted = 0;
        List<String> named = new ArrayList<>();
        Set<String> wanted = new HashSet<>(desired.size() * 2);
        for (HasMetadata d : desired) {
            String key = InsightStore.key(d);
            wanted.add(key);
            HasMetadata have = current.get(key);
            if (have == null) {
                write(d, () -> client.resource(d).create());
                created++;
                name(named, d);
            } else if (!same(d, have)) {
                HasMetadata next = d;
                next.setMetadata(merged(have.getMetadata(), d.getMetadata()));
                write(have, () -> client.resource(next).update());
                updated++;
                name(named, d);
            }
        }
        for (Map.Entry<String, HasMetadata> e : current.entrySet()) {
            if (!wanted.contains(e.getKey())) {
                delete(e.getValue());
                deleted++;
                name(named, e.getValue());
            }
        }
        if (created + updated + deleted > 0) {
            int more = created + updated + deleted - named.size();
            LOG.info(
                    "insight objects written: {} created, {} updated, {} deleted: {}{}",
                    created,
                    updated,
                    deleted,
                    String.join(", ", named),
                    more > 0 ? " and " + more + " more" : "");
        }
    }

    private void write(HasMetadata subject, Supplier<HasMetadata> request) {
        try {
            HasMetadata answer = request.get();
            writes.incrementAndGet();
            store.wrote(answer);
            LOG.debug(
                    "wrote {} (resourceVersion {})",
                    name(answer),
                    answer.getMetadata().getResourceVersion());
        } catch (KubernetesClientException e) {
            store.forget(
                    subject); // 409 or 404: the cache is to be trusted again, and the evaluation
            // retried
            throw e;
        }
    }

    private void delete(HasMetadata have) {
        try {
            // conditional on the version compared with: an object someone changed since is not ours
            // to drop unseen
            client.resource(have)
                    .lockResourceVersion(have.getMetadata().getResourceVersion())
                    .delete();
            writes.incrementAndGet();
            LOG.debug("deleted {}", name(have));
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                store.forget(have);
                throw e;
            }
        }
        store.deleted(have);
    }

    /**
     * Whether an object already holds what is wanted: the same status, acquired time and owners.
     */
    static boolean same(HasMetadata want, HasMetadata have) {
        if (!Objects.equals(annotation(want), annotation(have))
                || !owners(want).equals(owners(have))) {
            return false;
        }
        Object a = ((CustomResource<?, ?>) want).getStatus();
        Object b = ((CustomResource<?, ?>) have).getStatus();
        // Records compare cheaply; where they differ only in form (a null list read back as empty),
        // their JSON agrees.
        return Objects.equals(a, b) || JSON.valueToTree(a).equals(JSON.valueToTree(b));
    }

    private static List<OwnerReference> owners(HasMetadata o) {
        List<OwnerReference> refs = o.getMetadata().getOwnerReferences();
        return refs == null ? List.of() : refs;
    }

    private static String annotation(HasMetadata o) {
        Map<String, String> a = o.getMetadata().getAnnotations();
        return a == null ? null : a.get(StatusObjects.ACQUIRED_AT);
    }

    /**
     * The object's metadata as the server has it, with our annotation and owners, at the version
     * compared with.
     */
    private static ObjectMeta merged(ObjectMeta have, ObjectMeta want) {
        return new ObjectMetaBuilder(have)
                .addToAnnotations(
                        StatusObjects.ACQUIRED_AT,
                        want.getAnnotations().get(StatusObjects.ACQUIRED_AT))
                .withOwnerReferences(want.getOwnerReferences())
                .build();
    }

    /** Names the first few objects written, for the log line. */
    private static void name(List<String> named, HasMetadata o) {
        if (named.size() < 5) {
            named.add(name(o));
        }
    }

    private static String name(HasMetadata o) {
        return o.getPlural()
                + "."
                + HasMetadata.getGroup(o.getClass())
                + "/"
                + o.getMetadata().getName();
    }
}
