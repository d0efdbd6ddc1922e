package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The capabilities a cluster has enabled, kept where the installed ClusterVersion CRD cannot hold
 * them. A capability once enabled is never disabled (upstream's {@code lib/capability}), and
 * upstream learns what was enabled from {@code status.capabilities.enabledCapabilities}; but an
 * older CRD (a rollback to 4.13 after 4.14, say) enumerates fewer names than the cluster has
 * enabled, and what it refuses is left out of status. So that a CRD rollback, a restart, a new
 * release or the newer CRD coming back disables nothing, the controller also writes the enabled set
 * into the ClusterVersion annotation {@value #ANNOTATION}, which only it writes: from the first
 * time the CRD cannot hold one of them, and from then on whenever the enabled set changes. A
 * cluster whose CRD holds every enabled name never gets the annotation.
 */
public final class KeptCapabilities {

    /** The enabled capabilities, sorted, comma-separated. */
    public static final String ANNOTATION = "upshift.io/enabled-capabilities";

    private KeptCapabilities() {}

    /**
     * The capabilities enabled before: those status lists and those the annotation keeps (which the
     * installed CRD may have kept out of status).
     */
    public static Set<String> enabledBefore(ClusterVersion cv) {
        Set<String> out = new TreeSet<>(annotated(cv).orElse(Set.of()));
        var status = cv.getStatus();
        if (status != null
                && status.getCapabilities() != null
                && status.getCapabilities().getEnabledCapabilities() != null)
            out.addAll(status.getCapabilities().getEnabledCapabilities());
        return out;
    }

    /**
     * What the annotation should say now, when that differs from what it says: the enabled set,
     * once the installed CRD accepts only {@code accepted} (null: any name) and some enabled name
     * is not among them, or once the annotation exists. Empty when nothing is to be written.
     */
    public static Optional<String> annotation(
            ClusterVersion cv, Collection<String> enabled, Set<String> accepted) {
        Optional<Set<String>> now = annotated(cv);
        boolean needed = accepted != null && !accepted.containsAll(enabled);
        if (now.isEmpty() && !needed) return Optional.empty();
        String value = String.join(",", new TreeSet<>(enabled));
        return now.isPresent() && value.equals(String.join(",", now.get()))
                ? Optional.empty()
                : Optional.of(value);
    }

    /** The names the annotation keeps, sorted; empty when there is no annotation. */
    static Optional<Set<String>> annotated(ClusterVersion cv) {
        Map<String, String> a = cv.getMetadata() == null ? null : cv.getMetadata().getAnnotations();
        String value = a == null ? null : a.get(ANNOTATION);
        if (value == null) return Optional.empty();
        Set<String> names = new TreeSet<>();
        Arrays.stream(value.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .forEach(names::add);
        return Optional.of(names);
    }
}
