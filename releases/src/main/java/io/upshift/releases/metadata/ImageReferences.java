package io.upshift.releases.metadata;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The release's {@code image-references}: an {@code image.openshift.io/v1} ImageStream named after
 * the release version whose tags map component names (e.g. {@code cluster-version-operator}) to
 * image pullspecs.
 *
 * @param created its {@code metadata.creationTimestamp}, the payload's creation date (upstream's
 *     {@code cluster_version} type "current" reports it); null when the payload records none
 */
public record ImageReferences(String name, Map<String, String> images, java.time.Instant created) {

    public static final String FILE = "image-references";

    private static final ObjectMapper YAML = Mappers.YAML;

    public ImageReferences {
        images = Collections.unmodifiableMap(new LinkedHashMap<>(images));
    }

    public ImageReferences(String name, Map<String, String> images) {
        this(name, images, null);
    }

    /** Parses YAML or JSON; {@code source} names the file in errors. */
    public static ImageReferences parse(byte[] content, String source) throws ReleaseException {
        JsonNode root;
        try {
            root = YAML.readTree(content);
        } catch (JsonProcessingException e) {
            throw invalid(
                    source,
                    "not YAML or JSON at line "
                            + e.getLocation().getLineNr()
                            + ": "
                            + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw invalid(source, e.getMessage());
        }
        if (!(root instanceof ObjectNode doc))
            throw invalid(source, "expected an ImageStream object");
        String kind = doc.path("kind").asText(""), apiVersion = doc.path("apiVersion").asText("");
        if (!"ImageStream".equals(kind) || !"image.openshift.io/v1".equals(apiVersion)) {
            throw invalid(
                    source,
                    "is a "
                            + (kind.isEmpty() ? "document without kind" : apiVersion + " " + kind)
                            + ", expected an image.openshift.io/v1 ImageStream");
        }
        String name = doc.path("metadata").path("name").asText("");
        if (name.isEmpty()) throw invalid(source, "metadata.name is missing");
        Map<String, String> images = new LinkedHashMap<>();
        JsonNode tags = doc.path("spec").path("tags");
        if (!tags.isMissingNode() && !tags.isNull() && !tags.isArray())
            throw invalid(source, "spec.tags must be a list");
        int i = 0;
        for (JsonNode tag : tags) {
            String tagName = tag.path("name").asText("");
            if (tagName.isEmpty()) throw invalid(source, "spec.tags[" + i + "].name is missing");
            JsonNode from = tag.path("from");
            if ("DockerImage".equals(from.path("kind").asText())
                    && !from.path("name").asText("").isEmpty()) {
                images.put(tagName, from.path("name").asText());
            }
            i++;
        }
        return new ImageReferences(
                name, images, created(doc.path("metadata").path("creationTimestamp").asText("")));
    }

    /** Only metrics read it: an unreadable time is left out rather than failing the payload. */
    private static java.time.Instant created(String time) {
        if (time.isEmpty()) return null;
        try {
            return java.time.Instant.parse(time);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /** The ImageStream as the payload holds it (YAML). */
    public byte[] toYaml() {
        ObjectNode doc = YAML.createObjectNode();
        doc.put("kind", "ImageStream");
        doc.put("apiVersion", "image.openshift.io/v1");
        var metadata = doc.putObject("metadata").put("name", name);
        if (created != null) metadata.put("creationTimestamp", created.toString());
        ArrayNode tags = doc.putObject("spec").putArray("tags");
        images.forEach(
                (tag, image) -> {
                    ObjectNode t = tags.addObject();
                    t.put("name", tag);
                    t.putObject("from").put("kind", "DockerImage").put("name", image);
                });
        try {
            return YAML.writeValueAsBytes(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ReleaseException invalid(String source, String why) {
        return new ReleaseException(Reason.IMAGE_REFERENCES_INVALID, source + ": " + why);
    }
}
