package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code EnsureCustomResourceDefinitionV1} and {@code EnsureValidatingWebhookConfiguration}: the
 * spec, or the webhooks, replaced whole, keeping a CA bundle the service CA operator injected into
 * an object annotated {@code service.beta.openshift.io/inject-cabundle: "true"}.
 */
final class ApiExtensionsMerge {
    static final String INJECT_CABUNDLE = "service.beta.openshift.io/inject-cabundle";

    private ApiExtensionsMerge() {}

    static void customResourceDefinition(ObjectNode existing, JsonNode required) {
        ObjectNode spec = Fields.in(required, "spec").deepCopy();
        JsonNode injected =
                existing.path("spec")
                        .path("conversion")
                        .path("webhook")
                        .path("clientConfig")
                        .get("caBundle");
        if (injects(existing)
                && injected != null
                && "Webhook".equals(spec.path("conversion").path("strategy").asText())
                && spec.path("conversion").path("webhook").get("clientConfig")
                        instanceof ObjectNode client) {
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
            if (injects(existing)
                    && injected != null
                    && hook.get("clientConfig") instanceof ObjectNode client) {
                client.set("caBundle", injected.deepCopy());
            }
        }
        if (!Semantic.equal(existing.get("webhooks"), webhooks)) existing.set("webhooks", webhooks);
    }

    private static boolean injects(JsonNode existing) {
        return "true"
                .equals(
                        existing.path("metadata")
                                .path("annotations")
                                .path(INJECT_CABUNDLE)
                                .asText());
    }
}
