package io.upshift.releases.metadata;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.base.gofmt.GoJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The release's {@code image-references}: an {@code image.openshift.io/v1} ImageStream named after
 * the release version whose tags map component names (e.g. {@code cluster-version-operator}) to
 * image pullspecs, each tag annotated with the source its image was built from.
 *
 * <p>Read from JSON or YAML (older Upshift releases carry YAML, as {@code oc adm release info}
 * accepts); written as the JSON {@code oc adm release new} writes, which {@code oc adm release
 * extract} requires. Only the fields {@code oc adm release new} sets are kept: the name, creation
 * time and annotations of the stream, and each tag's name, annotations and image.
 *
 * @param created its {@code metadata.creationTimestamp}, the release's creation time (upstream's
 *     {@code cluster_version} type "current" reports it); null when the payload records none
 * @param annotations the stream's annotations (e.g. {@code release.openshift.io/from-release})
 * @param tags the spec tags, in the file's order
 */
public record ImageReferences(
        String name, Instant created, Map<String, String> annotations, List<Tag> tags) {

    public static final String FILE = "image-references";

    /** The kind of a tag's {@code from} that names an image by pullspec. */
    public static final String DOCKER_IMAGE = "DockerImage";

    /** The tag annotation naming the repository an image was built from. */
    public static final String SOURCE_LOCATION = "io.openshift.build.source-location";

    /** The tag annotation naming the commit an image was built from. */
    public static final String COMMIT_ID = "io.openshift.build.commit.id";

    private static final ObjectMapper YAML = Mappers.YAML;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * One spec tag.
     *
     * @param annotations null when the tag has none (Go writes a nil map as {@code null}, an empty
     *     one as {@code {}})
     * @param from the object it refers to; null when it names none
     */
    public record Tag(String name, Map<String, String> annotations, From from) {
        public Tag {
            annotations = annotations == null ? null : sorted(annotations);
        }

        /** A tag for an image by pullspec, without annotations. */
        public static Tag image(String name, String pullspec) {
            return new Tag(name, null, new From(DOCKER_IMAGE, pullspec));
        }

        /** The annotation's value, empty when it is not set (as Go reads a missing map key). */
        public String annotation(String key) {
            return annotations == null ? "" : annotations.getOrDefault(key, "");
        }

        /** True when it names an image by pullspec, the tags {@code oc adm release info} lists. */
        public boolean isImage() {
            return from != null && DOCKER_IMAGE.equals(from.kind()) && !from.name().isEmpty();
        }
    }

    /** A tag's {@code from}: an object reference of which oc's releases set the kind and name. */
    public record From(String kind, String name) {}

    public ImageReferences {
        annotations = annotations == null ? Map.of() : sorted(annotations);
        tags = List.copyOf(tags);
    }

    /** A stream of images by pullspec, in the map's order, without annotations or a time. */
    public ImageReferences(String name, Map<String, String> images) {
        this(name, images, null);
    }

    public ImageReferences(String name, Map<String, String> images, Instant created) {
        this(
                name,
                created,
                Map.of(),
                images.entrySet().stream().map(e -> Tag.image(e.getKey(), e.getValue())).toList());
    }

    /** Component name to pullspec for every tag naming an image, in the tags' order. */
    public Map<String, String> images() {
        Map<String, String> images = new LinkedHashMap<>();
        for (Tag t : tags) if (t.isImage()) images.put(t.name(), t.from().name());
        return Collections.unmodifiableMap(images);
    }

    /** The same stream for release {@code version}, created at {@code time}. */
    public ImageReferences named(String version, Instant time) {
        return new ImageReferences(version, time, annotations, tags);
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
        } catch (IOException e) {
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
        JsonNode metadata = doc.path("metadata");
        String name = metadata.path("name").asText("");
        if (name.isEmpty()) throw invalid(source, "metadata.name is missing");
        JsonNode tagList = doc.path("spec").path("tags");
        if (!tagList.isMissingNode() && !tagList.isNull() && !tagList.isArray())
            throw invalid(source, "spec.tags must be a list");
        List<Tag> tags = new ArrayList<>();
        int i = 0;
        for (JsonNode tag : tagList) {
            String at = "spec.tags[" + i++ + "]";
            String tagName = tag.path("name").asText("");
            if (tagName.isEmpty()) throw invalid(source, at + ".name is missing");
            JsonNode from = tag.path("from");
            tags.add(
                    new Tag(
                            tagName,
                            strings(tag.path("annotations"), source, at + ".annotations"),
                            from.isObject()
                                    ? new From(
                                            from.path("kind").asText(""),
                                            from.path("name").asText(""))
                                    : null));
        }
        Map<String, String> annotations =
                strings(metadata.path("annotations"), source, "metadata.annotations");
        return new ImageReferences(
                name, created(metadata.path("creationTimestamp").asText("")), annotations, tags);
    }

    /** A map of strings; null when absent or null. */
    private static Map<String, String> strings(JsonNode node, String source, String field)
            throws ReleaseException {
        if (node.isMissingNode() || node.isNull()) return null;
        if (!node.isObject()) throw invalid(source, field + " must be a map of strings");
        Map<String, String> map = new TreeMap<>();
        for (var e : (Iterable<Map.Entry<String, JsonNode>>) node::fields) {
            if (!e.getValue().isValueNode() || e.getValue().isNull())
                throw invalid(source, field + "." + e.getKey() + " must be a string");
            map.put(e.getKey(), e.getValue().asText());
        }
        return map;
    }

    /** Only metrics read it: an unreadable time is left out rather than failing the payload. */
    private static Instant created(String time) {
        if (time.isEmpty()) return null;
        try {
            return Instant.parse(time);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * The file as {@code oc adm release new} writes it: Go's {@code json.MarshalIndent(is, "", "
     * ")} of the ImageStream (openshift/api's field order, annotations sorted, tags sorted by
     * name), no trailing newline.
     */
    public byte[] toJson() {
        ObjectNode doc = NODES.objectNode();
        doc.put("kind", "ImageStream");
        doc.put("apiVersion", "image.openshift.io/v1");
        ObjectNode metadata = doc.putObject("metadata");
        metadata.put("name", name);
        // a zero metav1.Time marshals as null: creationTimestamp is never left out
        metadata.put("creationTimestamp", created == null ? null : rfc3339(created));
        if (!annotations.isEmpty()) metadata.set("annotations", object(annotations));
        ObjectNode spec = doc.putObject("spec");
        spec.putObject("lookupPolicy").put("local", false);
        if (!tags.isEmpty()) {
            ArrayNode list = spec.putArray("tags");
            tags.stream().sorted(Comparator.comparing(Tag::name)).forEach(t -> list.add(tag(t)));
        }
        doc.putObject("status").put("dockerImageRepository", "");
        return GoJson.marshalIndent(doc, "  ").getBytes(StandardCharsets.UTF_8);
    }

    private static ObjectNode tag(Tag t) {
        ObjectNode tag = NODES.objectNode();
        tag.put("name", t.name());
        tag.set("annotations", t.annotations() == null ? null : object(t.annotations()));
        if (t.from() != null) {
            ObjectNode from = tag.putObject("from");
            if (!t.from().kind().isEmpty()) from.put("kind", t.from().kind());
            if (!t.from().name().isEmpty()) from.put("name", t.from().name());
        }
        tag.putNull("generation");
        tag.putObject("importPolicy");
        tag.putObject("referencePolicy").put("type", "");
        return tag;
    }

    private static ObjectNode object(Map<String, String> map) {
        ObjectNode o = NODES.objectNode();
        new TreeMap<>(map).forEach(o::put);
        return o;
    }

    /** Go's RFC 3339 form of a metav1.Time: whole seconds, UTC. */
    private static String rfc3339(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static Map<String, String> sorted(Map<String, String> map) {
        return Collections.unmodifiableMap(new TreeMap<>(map));
    }

    private static ReleaseException invalid(String source, String why) {
        return new ReleaseException(Reason.IMAGE_REFERENCES_INVALID, source + ": " + why);
    }
}
