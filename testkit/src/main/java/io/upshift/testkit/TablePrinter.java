package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Server-side printing ({@code Accept: application/json;as=Table;g=meta.k8s.io;v=v1}), which
 * kubectl and oc ask for on {@code get}: a custom resource's list becomes a Table of its name and
 * its CRD's additionalPrinterColumns, as the API server's CRD table converter builds it (a column's
 * JSONPath gives its first match; dates as ages). Kinds without printer columns get no Table, and
 * the clients print names and ages themselves.
 */
final class TablePrinter {

    private TablePrinter() {}

    /** Whether the request asks for a Table. */
    static boolean wanted(String accept) {
        return accept != null && accept.contains("as=Table");
    }

    /**
     * The Table of {@code list} (an object or a list of objects) with {@code crd}'s columns for its
     * version, if it has any.
     */
    static Optional<JsonNode> table(JsonNode crd, JsonNode list, Instant now) {
        String version = list.path("apiVersion").asText("");
        version = version.substring(version.indexOf('/') + 1);
        JsonNode columns = null;
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("name").asText().equals(version))
                columns = v.path("additionalPrinterColumns");
        }
        if (columns == null || columns.isEmpty()) return Optional.empty();
        ObjectNode table =
                Mappers.JSON
                        .createObjectNode()
                        .put("kind", "Table")
                        .put("apiVersion", "meta.k8s.io/v1");
        table.putObject("metadata")
                .put("resourceVersion", list.path("metadata").path("resourceVersion").asText(""));
        ArrayNode definitions = table.putArray("columnDefinitions");
        definitions
                .addObject()
                .put("name", "Name")
                .put("type", "string")
                .put("format", "name")
                .put("description", "Name of the resource")
                .put("priority", 0);
        for (JsonNode c : columns) {
            definitions
                    .addObject()
                    .put("name", c.path("name").asText())
                    .put("type", c.path("type").asText("string"))
                    .put("format", c.path("format").asText(""))
                    .put("description", c.path("description").asText(""))
                    .put("priority", c.path("priority").asInt(0));
        }
        ArrayNode rows = table.putArray("rows");
        List<JsonNode> items = new ArrayList<>();
        if (list.has("items")) list.path("items").forEach(items::add);
        else items.add(list);
        for (JsonNode item : items) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            cells.add(item.path("metadata").path("name").asText());
            for (JsonNode c : columns)
                cells.add(
                        cell(
                                c.path("type").asText("string"),
                                JsonPaths.first(item, c.path("jsonPath").asText()),
                                now));
            ObjectNode object =
                    row.putObject("object")
                            .put("kind", "PartialObjectMetadata")
                            .put("apiVersion", "meta.k8s.io/v1");
            object.set("metadata", item.path("metadata"));
        }
        return Optional.of(table);
    }

    private static JsonNode cell(String type, JsonNode value, Instant now) {
        if (value == null || value.isNull() || value.isMissingNode())
            return Mappers.JSON.nullNode();
        if (type.equals("date")) {
            try {
                return Mappers.JSON
                        .getNodeFactory()
                        .textNode(age(Duration.between(Instant.parse(value.asText()), now)));
            } catch (RuntimeException e) {
                return Mappers.JSON.getNodeFactory().textNode("<invalid>");
            }
        }
        if (type.equals("integer") || type.equals("number") || type.equals("boolean")) return value;
        return Mappers.JSON
                .getNodeFactory()
                .textNode(value.isValueNode() ? value.asText() : value.toString());
    }

    /**
     * Kubernetes' human-readable age: {@code 45s}, {@code 5m10s}, {@code 3h}, {@code 2d4h} ... (its
     * duration.HumanDuration).
     */
    static String age(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 120) return s + "s";
        long m = s / 60;
        if (m < 10) return s % 60 == 0 ? m + "m" : m + "m" + (s % 60) + "s";
        if (m < 180) return m + "m";
        long h = m / 60;
        if (h < 8) return m % 60 == 0 ? h + "h" : h + "h" + (m % 60) + "m";
        if (h < 48) return h + "h";
        long days = h / 24;
        if (h < 24 * 8) return h % 24 == 0 ? days + "d" : days + "d" + (h % 24) + "h";
        if (days < 365 * 2) return days + "d";
        if (days < 365 * 8)
            return (days % 365 == 0) ? days / 365 + "y" : days / 365 + "y" + (days % 365) + "d";
        return days / 365 + "y";
    }
}
