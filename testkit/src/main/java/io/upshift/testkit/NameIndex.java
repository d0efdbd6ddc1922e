package io.upshift.testkit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The mock's stored objects by name, so that finding one object (which every create and update does
 * first) does not scan every object stored: at 20,000 objects the scan made the mock take about 10
 * ms per write. Keys are recorded as the mock stores them ({@code
 * KubernetesCrudDispatcher.processEvent} of fabric8 7.5.2, its one place that stores); a key the
 * store no longer holds is skipped and pruned, so removals need no hook.
 */
final class NameIndex {
    private static final String NAME = KubernetesAttributesExtractor.NAME;
    private final Map<Attribute, Set<AttributeSet>> byName = new ConcurrentHashMap<>();

    /**
     * Records the key the mock has just stored {@code resource} (or its JSON, {@code state}) under.
     */
    void stored(
            KubernetesAttributesExtractor extractor,
            AttributeSet pathAttributes,
            HasMetadata resource,
            String state) {
        if (state == null) return; // a deletion: nothing stored
        AttributeSet key =
                resource != null ? extractor.extract(resource) : extractor.fromResource(state);
        if (!key.containsKey(KubernetesAttributesExtractor.PLURAL))
            key = AttributeSet.merge(pathAttributes, key);
        Attribute name = key.getAttribute(NAME);
        if (name != null) byName.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet()).add(key);
    }

    /**
     * The stored entry matching a query that names one object, as the mock's own linear search
     * would find it; null when none does. Only for queries with a name ({@link #names}).
     */
    Map.Entry<AttributeSet, String> find(Map<AttributeSet, String> store, AttributeSet query) {
        Set<AttributeSet> keys = byName.get(query.getAttribute(NAME));
        if (keys == null) return null;
        for (var it = keys.iterator(); it.hasNext(); ) {
            AttributeSet key = it.next();
            String value = store.get(key);
            if (value == null) {
                it.remove(); // deleted, or stored anew under another key
            } else if (key.matches(query)) {
                return Map.entry(key, value);
            }
        }
        return null;
    }

    static boolean names(AttributeSet query) {
        return query.getAttribute(NAME) != null;
    }
}
