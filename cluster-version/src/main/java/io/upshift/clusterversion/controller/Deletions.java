package io.upshift.clusterversion.controller;

import io.upshift.releases.manifest.Manifest;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Deletions of objects the payload marks for deletion that this controller requested and has not
 * yet seen complete, as upstream's lib/resourcedelete tracks them, in memory: while any is in
 * progress the cluster is not upgradeable (ResourceDeletesInProgress). A restarted controller
 * requests again, when updating, what still exists.
 */
final class Deletions {
    /**
     * By the object's {@link LiveCache#key}, how upstream names it: {@code kind "namespace/name"},
     * kind in lower case.
     */
    private final Map<String, String> requested = new ConcurrentHashMap<>();

    private final Runnable onCompleted;

    /**
     * @param onCompleted called when a deletion in progress completes
     */
    Deletions(Runnable onCompleted) {
        this.onCompleted = onCompleted;
    }

    boolean isRequested(Manifest m) {
        return requested.containsKey(LiveCache.key(m));
    }

    void requested(Manifest m) {
        String name = m.namespace().isEmpty() ? m.name() : m.namespace() + "/" + m.name();
        requested.put(LiveCache.key(m), m.kind().toLowerCase(Locale.ROOT) + " \"" + name + "\"");
    }

    /** The object named {@code key} is gone. */
    void gone(String key) {
        if (requested.remove(key) != null) onCompleted.run();
    }

    /** The deletions in progress, sorted. */
    List<String> inProgress() {
        return List.copyOf(new TreeSet<>(requested.values()));
    }
}
