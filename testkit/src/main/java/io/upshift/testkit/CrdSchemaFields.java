package io.upshift.testkit;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.upshift.api.json.Mappers;
import java.util.Iterator;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What kube-apiserver keeps of a CRD's schemas: the fields of its schema type. A field it does not
 * have (real payloads carry some, such as {@code optional}) is dropped on write, where the mock API
 * server would fail to read the CRD at all and never answer the request.
 */
final class CrdSchemaFields {

    private static final Set<String> KNOWN = known();
    private static final Set<String> SCHEMA_MAPS =
            Set.of("properties", "patternProperties", "definitions", "dependencies");
    private static final Set<String> SCHEMA_LISTS = Set.of("allOf", "anyOf", "oneOf");
    private static final Set<String> SCHEMAS =
            Set.of("items", "additionalProperties", "additionalItems", "not");

    private CrdSchemaFields() {}

    private static Set<String> known() {
        JavaType type = Mappers.JSON.constructType(JSONSchemaProps.class);
        return Mappers.JSON.getSerializationConfig().introspect(type).findProperties().stream()
                .map(BeanPropertyDefinition::getName)
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Drops unknown schema fields from a CRD (or a patch of one); true when it dropped any. */
    static boolean prune(JsonNode crd) {
        boolean pruned = false;
        for (JsonNode version : crd.path("spec").path("versions"))
            pruned |= schema(version.path("schema").path("openAPIV3Schema"));
        return pruned;
    }

    private static boolean schema(JsonNode node) {
        if (!(node instanceof ObjectNode schema)) return false;
        boolean pruned = false;
        for (Iterator<String> names = schema.fieldNames(); names.hasNext(); ) {
            if (!KNOWN.contains(names.next())) {
                names.remove();
                pruned = true;
            }
        }
        for (String key : SCHEMA_MAPS)
            for (JsonNode child : schema.path(key)) pruned |= schema(child);
        for (String key : SCHEMA_LISTS)
            for (JsonNode child : schema.path(key)) pruned |= schema(child);
        for (String key : SCHEMAS) {
            JsonNode child = schema.path(key);
            if (child.isArray()) for (JsonNode c : child) pruned |= schema(c);
            else pruned |= schema(child);
        }
        return pruned;
    }
}
