package io.upshift.operator.cvo;

import io.upshift.core.payload.Manifest;
import java.util.Set;

/**
 * Where a kind departs from the generic rule (only fields the manifest sets are compared and merged, so server
 * defaults and other writers' fields never cause a write): a ConfigMap's or Secret's data belongs to the payload
 * whole, so keys someone else added are removed; a Job's spec cannot change in place, so a changed Job is replaced.
 */
final class MergeRules {

    private static final Set<String> DATA = Set.of("data", "binaryData", "stringData");

    private MergeRules() {
    }

    /** Top-level fields the payload owns whole: compared and written exactly, not merged. */
    static Set<String> exact(Manifest m) {
        boolean core = m.group().isEmpty();
        return core && ("ConfigMap".equals(m.kind()) || "Secret".equals(m.kind())) ? DATA : Set.of();
    }

    /** True when {@code differingPath} can only be reached by deleting and creating the object again. */
    static boolean recreate(Manifest m, String differingPath) {
        return m.isJob() && differingPath.startsWith(".spec");
    }
}
