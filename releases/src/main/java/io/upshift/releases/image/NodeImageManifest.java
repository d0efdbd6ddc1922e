package io.upshift.releases.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code release new --node-image}: the node image every config the release renders names, as the
 * ConfigMap {@code machine-config-osimageurl} carries it in an OpenShift payload ({@code
 * baseOSContainerImage}, with the {@code releaseVersion} it belongs to). The payload's own
 * ConfigMap is changed where it has one; else one is added in the namespace of the payload's {@code
 * machine-config-templates}, as the document before it in the same file, so that the pool
 * controller never renders the release's configs without their image. A payload that renders no
 * node configs is refused: nothing would use the image.
 */
public final class NodeImageManifest {
    public static final String CONFIG_MAP = "machine-config-osimageurl";
    static final String TEMPLATES = "machine-config-templates";
    private static final Pattern BY_DIGEST = Pattern.compile("[^@\\s]+@sha256:[0-9a-f]{64}");

    private NodeImageManifest() {}

    /**
     * Sets {@code image} as release {@code version}'s node image in the payload at {@code payload}
     * (a copy: its files are changed).
     *
     * @return the payload file changed, relative to {@code payload}
     */
    public static String apply(Path payload, String version, String image)
            throws ReleaseException, IOException {
        if (!BY_DIGEST.matcher(image).matches())
            throw new ReleaseException(
                    Reason.NOT_BY_DIGEST,
                    "--node-image "
                            + image
                            + " does not name the image by digest (name@sha256:<64 hex digits>):"
                            + " a node image must, so that every node boots the same files");
        Path templates = null;
        for (Path file : manifestFiles(payload)) {
            List<JsonNode> docs = documents(file);
            for (JsonNode doc : docs) {
                if (isConfigMap(doc, CONFIG_MAP)) {
                    ObjectNode data = ((ObjectNode) doc).with("data");
                    data.put("baseOSContainerImage", image).put("releaseVersion", version);
                    write(file, docs);
                    return payload.relativize(file).toString();
                }
                if (isConfigMap(doc, TEMPLATES) && templates == null) templates = file;
            }
        }
        if (templates == null)
            throw new ReleaseException(
                    Reason.MANIFEST_INVALID,
                    "--node-image: the payload renders no node configs (no ConfigMap "
                            + TEMPLATES
                            + " in manifests/ or release-manifests/): nothing would boot "
                            + image);
        List<JsonNode> docs = documents(templates);
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode doc : docs) {
            if (isConfigMap(doc, TEMPLATES)) out.add(configMap(doc, version, image));
            out.add(doc);
        }
        write(templates, out);
        return payload.relativize(templates).toString();
    }

    private static ObjectNode configMap(JsonNode templates, String version, String image) {
        ObjectNode cm =
                Mappers.YAML.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        ObjectNode meta = cm.putObject("metadata").put("name", CONFIG_MAP);
        String namespace = templates.path("metadata").path("namespace").asText("");
        if (!namespace.isEmpty()) meta.put("namespace", namespace);
        JsonNode annotations = templates.path("metadata").path("annotations");
        if (annotations.isObject()) meta.set("annotations", annotations.deepCopy());
        cm.putObject("data")
                .put("releaseVersion", version)
                .put("baseOSContainerImage", image)
                .put("baseOSExtensionsContainerImage", "");
        return cm;
    }

    private static boolean isConfigMap(JsonNode doc, String name) {
        return doc != null
                && "ConfigMap".equals(doc.path("kind").asText())
                && name.equals(doc.path("metadata").path("name").asText());
    }

    private static List<Path> manifestFiles(Path payload) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String dir : List.of("manifests", "release-manifests")) {
            Path d = payload.resolve(dir);
            if (!Files.isDirectory(d)) continue;
            try (Stream<Path> list = Files.list(d)) {
                list.filter(p -> p.getFileName().toString().matches(".*\\.(yaml|yml|json)"))
                        .sorted()
                        .forEach(files::add);
            }
        }
        return files;
    }

    private static List<JsonNode> documents(Path file) throws ReleaseException, IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it =
                Mappers.YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
            while (it.hasNext()) docs.add(it.next());
        } catch (RuntimeException | com.fasterxml.jackson.core.JacksonException e) {
            throw new ReleaseException(
                    Reason.MANIFEST_INVALID, file + " does not parse: " + e.getMessage(), e);
        }
        return docs;
    }

    private static void write(Path file, List<JsonNode> docs) throws IOException {
        StringBuilder out = new StringBuilder();
        for (JsonNode d : docs) {
            if (d == null || d.isNull() || d.isMissingNode()) continue;
            out.append(Mappers.YAML.writeValueAsString(d));
        }
        Files.writeString(file, out.toString());
    }
}
