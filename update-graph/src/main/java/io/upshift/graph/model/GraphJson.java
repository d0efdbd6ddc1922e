package io.upshift.graph.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.api.json.Mappers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The graph service's JSON: {@code
 * {"version":1,"nodes":[...],"edges":[[i,j]],"conditionalEdges":[...]}}.
 */
public final class GraphJson {

    private static final ObjectMapper JSON = Mappers.JSON;
    private static final JsonFactory FACTORY = new JsonFactory();

    private GraphJson() {}

    public static byte[] write(Graph g) {
        ByteArrayOutputStream bytes =
                new ByteArrayOutputStream(64 + g.edges().size() * 12 + g.nodes().size() * 400);
        try (JsonGenerator out = FACTORY.createGenerator(bytes)) {
            out.writeStartObject();
            out.writeNumberField("version", 1);
            out.writeArrayFieldStart("nodes");
            for (GraphNode n : g.nodes()) {
                out.writeStartObject();
                out.writeStringField("version", n.version());
                out.writeStringField("payload", n.payload());
                out.writeObjectFieldStart("metadata");
                for (Map.Entry<String, String> m : n.metadata().entrySet())
                    out.writeStringField(m.getKey(), m.getValue());
                out.writeEndObject();
                out.writeEndObject();
            }
            out.writeEndArray();
            out.writeArrayFieldStart("edges");
            for (int[] e : g.edges()) {
                out.writeStartArray();
                out.writeNumber(e[0]);
                out.writeNumber(e[1]);
                out.writeEndArray();
            }
            out.writeEndArray();
            out.writeArrayFieldStart("conditionalEdges");
            for (ConditionalEdges c : g.conditionalEdges()) {
                out.writeStartObject();
                out.writeArrayFieldStart("edges");
                for (ConditionalEdges.Edge e : c.edges()) {
                    out.writeStartObject();
                    out.writeStringField("from", e.from());
                    out.writeStringField("to", e.to());
                    out.writeEndObject();
                }
                out.writeEndArray();
                out.writeArrayFieldStart("risks");
                for (Risk r : c.risks()) {
                    out.writeStartObject();
                    out.writeStringField("url", r.url());
                    out.writeStringField("name", r.name());
                    out.writeStringField("message", r.message());
                    out.writeArrayFieldStart("matchingRules");
                    for (Risk.MatchingRule rule : r.matchingRules()) {
                        out.writeStartObject();
                        out.writeStringField("type", rule.type());
                        if (rule.promql() != null) {
                            out.writeObjectFieldStart("promql");
                            out.writeStringField("promql", rule.promql());
                            out.writeEndObject();
                        }
                        out.writeEndObject();
                    }
                    out.writeEndArray();
                    out.writeEndObject();
                }
                out.writeEndArray();
                out.writeEndObject();
            }
            out.writeEndArray();
            out.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Reads and validates a graph; {@code limit} bounds the bytes accepted.
     *
     * @throws GraphException {@code invalid_graph} naming what is wrong
     */
    public static Graph read(byte[] content, int limit) throws GraphException {
        if (content.length > limit)
            throw new GraphException(
                    "invalid_graph",
                    "the graph is "
                            + content.length
                            + " bytes, more than the "
                            + limit
                            + " accepted");
        JsonNode root;
        try {
            root = JSON.readTree(content);
        } catch (IOException e) {
            throw new GraphException(
                    "invalid_graph",
                    "the graph is not JSON: "
                            + String.valueOf(e.getMessage()).lines().findFirst().orElse(""),
                    e);
        }
        if (root == null || !root.isObject() || !root.path("nodes").isArray()) {
            throw new GraphException("invalid_graph", "the graph has no nodes list");
        }
        List<GraphNode> nodes = new ArrayList<>();
        for (JsonNode n : root.path("nodes")) {
            Map<String, String> metadata = new LinkedHashMap<>();
            n.path("metadata")
                    .fields()
                    .forEachRemaining(e -> metadata.put(e.getKey(), e.getValue().asText()));
            nodes.add(
                    new GraphNode(
                            n.path("version").asText(""), n.path("payload").asText(""), metadata));
        }
        List<int[]> edges = new ArrayList<>();
        for (JsonNode e : root.path("edges")) {
            if (!e.isArray()
                    || e.size() != 2
                    || !e.get(0).canConvertToInt()
                    || !e.get(1).canConvertToInt()) {
                throw new GraphException(
                        "invalid_graph", "edge " + e + " is not a pair of node indices");
            }
            edges.add(new int[] {e.get(0).asInt(), e.get(1).asInt()});
        }
        List<ConditionalEdges> conditional = new ArrayList<>();
        for (JsonNode c : root.path("conditionalEdges")) {
            List<ConditionalEdges.Edge> ce = new ArrayList<>();
            for (JsonNode e : c.path("edges"))
                ce.add(
                        new ConditionalEdges.Edge(
                                e.path("from").asText(""), e.path("to").asText("")));
            List<Risk> risks = new ArrayList<>();
            for (JsonNode r : c.path("risks")) {
                List<Risk.MatchingRule> rules = new ArrayList<>();
                for (JsonNode rule : r.path("matchingRules")) {
                    JsonNode q = rule.path("promql").path("promql");
                    rules.add(
                            new Risk.MatchingRule(
                                    rule.path("type").asText(""),
                                    q.isMissingNode() ? null : q.asText()));
                }
                risks.add(
                        new Risk(
                                r.path("url").asText(""),
                                r.path("name").asText(""),
                                r.path("message").asText(""),
                                rules));
            }
            conditional.add(new ConditionalEdges(ce, risks));
        }
        return Graph.of(nodes, edges, conditional);
    }
}
