package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code EnsureServicePorts} and {@code EnsureServiceType}: ports by name (replaced whole after
 * defaults, removed when no longer listed), type, selector. The cluster IPs and other fields the
 * API server allocates are left alone.
 */
final class ServiceMerge {
    private ServiceMerge() {}

    static void service(ObjectNode e, JsonNode r) {
        Fields.keyedList(
                e,
                r,
                "ports",
                "name",
                (have, want) -> {
                    if (Semantic.equal(have, want)) return;
                    have.removeAll();
                    have.setAll((ObjectNode) want.deepCopy());
                });
        Fields.replace(e, r, "type");
        Fields.replace(e, r, "selector");
    }
}
