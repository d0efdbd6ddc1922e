package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code EnsureClusterRole}, {@code EnsureRole} and the bindings': rules, subjects and roleRef are
 * replaced whole.
 */
final class RbacMerge {
    private RbacMerge() {}

    /** An aggregated ClusterRole's rules are the aggregation controller's, not the manifest's. */
    static void clusterRole(ObjectNode e, JsonNode r) {
        Fields.replace(e, r, "aggregationRule");
        if (Semantic.isZero(r.get("aggregationRule"))) Fields.replace(e, r, "rules");
    }

    static void role(ObjectNode e, JsonNode r) {
        Fields.replace(e, r, "rules");
    }

    static void binding(ObjectNode e, JsonNode r) {
        Fields.replace(e, r, "subjects");
        Fields.replace(e, r, "roleRef");
    }
}
