package io.upshift.releases.capability;

import java.util.Set;
import java.util.TreeSet;

/**
 * The capabilities a cluster knows and those it has enabled (a subset of the known ones), and among
 * the enabled those its spec does not ask for: enabled before and never disabled again, or enabled
 * by an update so that nothing the cluster runs disappears (upstream's ClusterCapabilities,
 * lib/capability).
 */
public record Capabilities(Set<String> known, Set<String> enabled, Set<String> implicitlyEnabled) {

    public Capabilities {
        known = Set.copyOf(known);
        enabled = Set.copyOf(enabled);
        implicitlyEnabled = Set.copyOf(implicitlyEnabled);
    }

    /** Capabilities all of which the spec asks for. */
    public Capabilities(Set<String> known, Set<String> enabled) {
        this(known, enabled, Set.of());
    }

    /** Sorted, as ClusterVersion status lists them. */
    public TreeSet<String> enabledSorted() {
        return new TreeSet<>(enabled);
    }
}
