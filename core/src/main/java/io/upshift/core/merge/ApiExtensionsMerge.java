package io.upshift.core.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code EnsureCustomResourceDefinitionV1} and {@code EnsureValidatingWebhookConfiguration}: the spec, or the webhooks,
 * replaced whole after the API server's defaults are filled in, keeping a CA bundle the service CA operator injected
 * into an object annotated {@code service.beta.openshift.io/inject-cabundle: "true"}.
 */
final class ApiExtensionsMerge {
    static final String INJECT_CABUNDLE = "service.beta.openshift.io/inject-cabundle";

    private ApiExtensionsMerge() {
    }

    static void customResourceDefinition(ObjectNode existing, JsonNode required) {
        ObjectNode spec = Fields.in(required, "spec").deepCopy();
        ObjectNode names = Fields.object(spec, "names");
        String kind = names.path("kind").asText("");
        if (Semantic.isZero(names.get("singular"))) names.put("singular", kind.toLowerCase(java.util.Locale.ROOT));
        if (Semantic.isZero(names.get("listKind"))) names.put("listKind", kind + "List");
        if (Semantic.isZero(spec.get("conversion"))) spec.putObject("conversion").put("strategy", "None");
        JsonNode injected = existing.path("spec").path("conversion").path("webhook").path("clientConfig").get("caBundle");
        if (injects(existing) && injected != null && "Webhook".equals(spec.path("conversion").path("strategy").asText())
                && spec.path("conversion").path("webhook").get("clientConfig") instanceof ObjectNode client) {
            client.set("caBundle", injected.deepCopy());
        }
        if (!Semantic.equal(existing.get("spec"), spec)) existing.set("spec", spec);
    }

    static void webhookConfiguration(ObjectNode existing, JsonNode required) {
        JsonNode want = required.get("webhooks");
        ArrayNode webhooks = want instanceof ArrayNode a ? a.deepCopy() : existing.arrayNode();
        JsonNode injected = existing.path("webhooks").path(0).path("clientConfig").get("caBundle");
        for (JsonNode w : webhooks) {
            ObjectNode hook = (ObjectNode) w;
            if (Semantic.isZero(hook.get("failurePolicy"))) hook.put("failurePolicy", "Fail");
            if (Semantic.isZero(hook.get("matchPolicy"))) hook.put("matchPolicy", "Equivalent");
            if (hook.get("namespaceSelector") == null) hook.putObject("namespaceSelector");
            if (hook.get("objectSelector") == null) hook.putObject("objectSelector");
            if (Semantic.isZero(hook.get("timeoutSeconds"))) hook.put("timeoutSeconds", 10);
            for (JsonNode rule : hook.path("rules")) {
                if (rule instanceof ObjectNode o && Semantic.isZero(o.get("scope"))) o.put("scope", "*");
            }
            if (injects(existing) && injected != null && hook.get("clientConfig") instanceof ObjectNode client) {
                client.set("caBundle", injected.deepCopy());
            }
        }
        if (!Semantic.equal(existing.get("webhooks"), webhooks)) existing.set("webhooks", webhooks);
    }

    private static boolean injects(JsonNode existing) {
        return "true".equals(existing.path("metadata").path("annotations").path(INJECT_CABUNDLE).asText());
    }
}
