package io.upshift.core.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * {@code EnsureServicePorts} and {@code EnsureServiceType}: ports by name (replaced whole after defaults, removed when
 * no longer listed), type, selector. The cluster IPs and other fields the API server allocates are left alone.
 */
final class ServiceMerge {
    private ServiceMerge() {
    }

    static void service(ObjectNode e, JsonNode r) {
        ArrayNode wanted = r.get("ports") instanceof ArrayNode a ? a.deepCopy() : e.arrayNode();
        for (JsonNode p : wanted) {
            ObjectNode port = (ObjectNode) p;
            if (Semantic.isZero(port.get("protocol"))) port.put("protocol", "TCP");
            if (Semantic.isZero(port.get("targetPort"))) port.set("targetPort", port.path("port"));
        }
        ObjectNode defaulted = ((ObjectNode) r).deepCopy();
        defaulted.set("ports", wanted);
        Fields.keyedList(e, defaulted, "ports", "name", (have, want) -> {
            if (Semantic.equal(have, want)) return;
            have.removeAll();
            have.setAll((ObjectNode) want.deepCopy());
        });
        Fields.replaceOrDefault(e, r, "type", TextNode.valueOf("ClusterIP"));
        Fields.replace(e, r, "selector");
    }
}
