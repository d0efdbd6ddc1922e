package io.upshift.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The structural schema of one version of a CustomResourceDefinition, as a validator of objects:
 * what the API server would reject fails here too. Fields the schema does not declare fail as well,
 * since the API server would silently drop them (pruning) and the data would be lost.
 */
public final class CrdSchema {
    private static final ObjectMapper YAML = Mappers.YAML;
    private static final ObjectMapper JSON = Mappers.JSON;
    private final Schema schema;
    private final String crdName;

    private CrdSchema(String crdName, JsonNode openApiSchema) {
        this.crdName = crdName;
        ObjectNode closed = closeObjects(openApiSchema.deepCopy());
        this.schema =
                SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2019_09)
                        .getSchema(closed);
    }

    /** Reads a CRD (YAML or JSON) and takes the schema of the given version. */
    public static CrdSchema of(InputStream crd, String version) {
        try {
            JsonNode root = YAML.readTree(crd);
            for (JsonNode v : root.path("spec").path("versions")) {
                if (version.equals(v.path("name").asText())) {
                    return new CrdSchema(
                            root.path("metadata").path("name").asText(),
                            v.path("schema").path("openAPIV3Schema"));
                }
            }
            throw new IllegalArgumentException(
                    "CRD "
                            + root.path("metadata").path("name").asText()
                            + " has no version "
                            + version);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A CRD shipped on the classpath under {@code crds/}. */
    public static CrdSchema bundled(String crdName, String version) {
        try (InputStream in = CrdSchema.class.getResourceAsStream("/crds/" + crdName + ".yaml")) {
            if (in == null) {
                throw new IllegalArgumentException("no bundled CRD " + crdName);
            }
            return of(in, version);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The violations of an object (serialised with the API's JSON mapping), each "path: message";
     * empty if valid.
     */
    public List<String> violations(Object object) {
        JsonNode node = object instanceof JsonNode n ? n : JSON.valueToTree(object);
        List<Error> errors = schema.validate(node);
        return errors.stream()
                .map(e -> crdName + ": " + e.getInstanceLocation() + ": " + e.getMessage())
                .toList();
    }

    /**
     * One violation: where (the path of the object or field, as names and list indexes), which rule
     * ({@code enum}, {@code additionalProperties}, {@code type}...), the property it names when the
     * rule is about a property of the object at {@code path} (an undeclared or a missing one), and
     * the validator's message.
     */
    public record Violation(List<Object> path, String keyword, String property, String message) {
        /** The path as {@code status.history[0].state}. */
        public String where() {
            return where(path);
        }

        /** A path of names and list indexes as {@code status.history[0].state}. */
        public static String where(List<Object> path) {
            StringBuilder b = new StringBuilder();
            for (Object p : path) {
                if (p instanceof Integer i) b.append('[').append(i).append(']');
                else b.append(b.isEmpty() ? "" : ".").append(p);
            }
            return b.toString();
        }
    }

    /** The violations of an object, structured. */
    public List<Violation> violationsOf(Object object) {
        JsonNode node = object instanceof JsonNode n ? n : JSON.valueToTree(object);
        return schema.validate(node).stream()
                .map(
                        e -> {
                            List<Object> path = new ArrayList<>();
                            for (int i = 0; i < e.getInstanceLocation().getNameCount(); i++)
                                path.add(e.getInstanceLocation().getElement(i));
                            return new Violation(
                                    path, e.getKeyword(), e.getProperty(), e.getMessage());
                        })
                .toList();
    }

    /**
     * OpenAPI to JSON Schema: objects with declared properties and no {@code
     * x-kubernetes-preserve-unknown-fields} admit no other fields; {@code nullable: true} admits
     * null.
     */
    private static ObjectNode closeObjects(ObjectNode node) {
        if (node.has("properties")
                && !node.has("additionalProperties")
                && !node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            node.put("additionalProperties", false);
        }
        if (node.path("nullable").asBoolean(false) && node.has("type")) {
            ArrayNode types = node.arrayNode().add(node.get("type").asText()).add("null");
            node.set("type", types);
            node.remove("nullable"); // said in JSON Schema's words now
        }
        // Embedded Kubernetes objects carry apiVersion/kind/metadata the schema need not spell out.
        if (node.path("x-kubernetes-embedded-resource").asBoolean(false)
                && node.has("properties")) {
            node.remove("additionalProperties");
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getValue() instanceof ObjectNode child) {
                if (f.getKey().equals("properties")) {
                    child.fields()
                            .forEachRemaining(
                                    p -> {
                                        if (p.getValue() instanceof ObjectNode o) {
                                            closeObjects(o);
                                        }
                                    });
                } else {
                    closeObjects(child);
                }
            } else if (f.getValue() instanceof ArrayNode array) {
                array.forEach(
                        item -> {
                            if (item instanceof ObjectNode o) {
                                closeObjects(o);
                            }
                        });
            }
        }
        // Kubernetes' own extensions (list types, CEL rules...) are the API server's, not JSON
        // Schema's: said above
        // where they matter here, and left out so that the validator does not warn about each one
        node.retain(names(node).stream().filter(n -> !n.startsWith("x-kubernetes-")).toList());
        return node;
    }

    private static List<String> names(ObjectNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
