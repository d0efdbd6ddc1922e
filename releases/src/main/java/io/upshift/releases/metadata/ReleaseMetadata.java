package io.upshift.releases.metadata;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.base.gofmt.GoJson;
import io.upshift.base.version.SemVer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The release's {@code release-metadata} document ({@code cincinnati-metadata-v0}): its version,
 * the versions it may be updated from and to, and free-form metadata such as the errata URL and
 * channels.
 */
public record ReleaseMetadata(
        String version, List<String> previous, List<String> next, Map<String, String> metadata) {

    public static final String KIND = "cincinnati-metadata-v0";
    public static final String FILE = "release-metadata";
    public static final String CHANNELS = "io.openshift.upgrades.graph.release.channels";
    public static final String ARCHITECTURE = "release.openshift.io/architecture";

    private static final ObjectMapper JSON = Mappers.JSON;

    public ReleaseMetadata {
        previous = List.copyOf(previous);
        next = List.copyOf(next);
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    public SemVer semVer() {
        return SemVer.parse(version);
    }

    public String url() {
        return metadata.getOrDefault("url", "");
    }

    /** The channels listed in the metadata, in their order; empty when none. */
    public List<String> channels() {
        String c = metadata.getOrDefault(CHANNELS, "");
        return c.isBlank()
                ? List.of()
                : Arrays.stream(c.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** {@code multi} for a heterogeneous release, empty when the metadata does not say. */
    public String architecture() {
        return metadata.getOrDefault(ARCHITECTURE, "");
    }

    /**
     * The release's architecture as ClusterVersion reports it (ReleaseAccepted, status.desired), as
     * upstream's payload loading decides it: {@code Multi} for a multi-architecture release, else
     * the architecture the controller runs on ({@code runtime}, GOARCH names; upstream's {@code
     * runtime.GOARCH}).
     */
    public String clusterArchitecture(String runtime) {
        return "multi".equals(architecture()) ? "Multi" : runtime;
    }

    /**
     * Parses the document; {@code source} names it in errors (e.g. {@code
     * release-manifests/release-metadata}).
     *
     * @throws ReleaseException RELEASE_METADATA_WRONG_KIND for another kind,
     *     RELEASE_METADATA_INVALID otherwise
     */
    public static ReleaseMetadata parse(byte[] content, String source) throws ReleaseException {
        JsonNode root;
        try {
            root = JSON.readTree(content);
        } catch (JsonProcessingException e) {
            throw invalid(
                    source,
                    "not JSON at line "
                            + e.getLocation().getLineNr()
                            + ": "
                            + e.getOriginalMessage());
        } catch (IOException e) {
            throw invalid(source, e.getMessage());
        }
        if (!(root instanceof ObjectNode doc)) {
            throw invalid(source, "expected a JSON object");
        }
        String kind = doc.path("kind").asText("");
        if (!KIND.equals(kind)) {
            throw new ReleaseException(
                    Reason.RELEASE_METADATA_WRONG_KIND,
                    source + ": kind is \"" + kind + "\", expected \"" + KIND + "\"");
        }
        String version = doc.path("version").asText("");
        if (version.isEmpty()) throw invalid(source, "version is missing");
        if (!SemVer.isValid(version))
            throw invalid(source, "version \"" + version + "\" is not a semantic version");
        List<String> previous = versions(doc, "previous", source);
        List<String> next = versions(doc, "next", source);
        Map<String, String> metadata = new LinkedHashMap<>();
        JsonNode meta = doc.path("metadata");
        if (!meta.isMissingNode() && !meta.isNull() && !meta.isObject())
            throw invalid(source, "metadata must be an object");
        meta.fields()
                .forEachRemaining(
                        e ->
                                metadata.put(
                                        e.getKey(),
                                        e.getValue().isTextual()
                                                ? e.getValue().asText()
                                                : e.getValue().toString()));
        return new ReleaseMetadata(version, previous, next, metadata);
    }

    /**
     * The document as {@code oc adm release new} writes it: Go's {@code json.MarshalIndent(cm, "",
     * " ")} of its CincinnatiMetadata, no trailing newline. {@code previous} is always present
     * ({@code []} when empty), {@code next} and {@code metadata} only when not empty; versions are
     * sorted as strings and metadata keys sorted, as oc sorts them. Metadata values are written as
     * strings (a non-string value read from a payload is kept as its JSON text).
     */
    public byte[] toJson() {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("kind", KIND);
        doc.put("version", version);
        ArrayNode p = doc.putArray("previous");
        previous.stream().sorted().forEach(p::add);
        if (!next.isEmpty()) {
            ArrayNode n = doc.putArray("next");
            next.stream().sorted().forEach(n::add);
        }
        if (!metadata.isEmpty()) {
            ObjectNode m = doc.putObject("metadata");
            new TreeMap<>(metadata).forEach(m::put);
        }
        return GoJson.marshalIndent(doc, "  ").getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> versions(ObjectNode doc, String field, String source)
            throws ReleaseException {
        JsonNode node = doc.path(field);
        if (node.isMissingNode() || node.isNull()) return List.of();
        if (!node.isArray()) throw invalid(source, field + " must be a list of versions");
        List<String> out = new ArrayList<>();
        for (JsonNode v : node) {
            if (!v.isTextual() || !SemVer.isValid(v.asText())) {
                throw invalid(
                        source,
                        field
                                + " holds \""
                                + v.asText(v.toString())
                                + "\", which is not a semantic version");
            }
            out.add(v.asText());
        }
        return out;
    }

    private static ReleaseException invalid(String source, String why) {
        return new ReleaseException(Reason.RELEASE_METADATA_INVALID, source + ": " + why);
    }
}
