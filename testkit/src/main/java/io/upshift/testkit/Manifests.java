package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The objects of a multi-document YAML file on the classpath, read once. */
final class Manifests {
    private static final Map<String, List<JsonNode>> READ = new ConcurrentHashMap<>();

    private Manifests() {}

    /** The objects of {@code resource}, each a copy the caller may change. */
    static List<JsonNode> read(String resource) {
        return READ.computeIfAbsent(resource, Manifests::load).stream()
                .<JsonNode>map(JsonNode::deepCopy)
                .toList();
    }

    private static List<JsonNode> load(String resource) {
        try (InputStream in = Manifests.class.getResourceAsStream(resource)) {
            if (in == null)
                throw new IllegalStateException(
                        resource
                                + " is not on the classpath (the testkit's build copies it from"
                                + " deploy/)");
            List<JsonNode> out = new ArrayList<>();
            try (MappingIterator<JsonNode> it =
                    Mappers.YAML.readerFor(JsonNode.class).readValues(in)) {
                while (it.hasNext()) {
                    JsonNode doc = it.next();
                    if (doc != null && doc.isObject() && doc.has("kind")) out.add(doc);
                }
            }
            return List.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException(resource + ": " + e.getMessage(), e);
        }
    }
}
