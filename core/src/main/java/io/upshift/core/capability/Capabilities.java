package io.upshift.core.capability;

import java.util.Set;
import java.util.TreeSet;

/** The capabilities a cluster knows and those it has enabled (a subset of the known ones). */
public record Capabilities(Set<String> known, Set<String> enabled) {

    public Capabilities {
        known = Set.copyOf(known);
        enabled = Set.copyOf(enabled);
    }

    /** Sorted, as ClusterVersion status lists them. */
    public TreeSet<String> enabledSorted() {
        return new TreeSet<>(enabled);
    }
}
