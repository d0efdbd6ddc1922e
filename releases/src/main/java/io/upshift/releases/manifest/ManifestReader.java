package io.upshift.releases.manifest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the manifests of one payload file: a YAML stream of documents separated by {@code ---}, or
 * one or more JSON objects. Empty documents are skipped; every other document must be an object
 * with a kind and a name.
 */
public final class ManifestReader {

    private static final ObjectMapper YAML = Mappers.YAML;
    private static final ObjectMapper JSON = Mappers.JSON;

    /**
     * The most characters one document may hold: a Kubernetes API server refuses a request larger
     * than 3 MiB, so a larger manifest could never be applied.
     */
    public static final long DOCUMENT_LIMIT = 3L << 20;

    private ManifestReader() {}

    /** True for the file names the payload loads: {@code .yaml}, {@code .yml} and {@code .json}. */
    public static boolean isManifestFile(String fileName) {
        return fileName.endsWith(".yaml")
                || fileName.endsWith(".yml")
                || fileName.endsWith(".json");
    }

    /**
     * Parses {@code text}; {@code file} names it in the manifests and in errors.
     *
     * @throws ReleaseException MANIFEST_INVALID naming the file and line
     */
    public static List<Manifest> read(String file, String text) throws ReleaseException {
        ObjectMapper mapper = file.endsWith(".json") ? JSON : YAML;
        List<Manifest> out = new ArrayList<>();
        Set<Manifest.Id> seen = new HashSet<>();
        try (JsonParser p = mapper.getFactory().createParser(text)) {
            JsonToken token;
            while ((token = p.nextToken()) != null) {
                int line = p.currentTokenLocation().getLineNr();
                long start = p.currentTokenLocation().getCharOffset();
                JsonNode node = mapper.readTree(p);
                long size = p.currentLocation().getCharOffset() - start;
                if (start >= 0 && size > DOCUMENT_LIMIT)
                    throw invalid(
                            file,
                            line,
                            "the document is "
                                    + size
                                    + " characters, over the limit of "
                                    + DOCUMENT_LIMIT
                                    + " (3 MiB, the largest request a Kubernetes API server"
                                    + " accepts)");
                // an empty document ("---" then "---") reads as null, or as an empty string
                // depending on the YAML loader's options
                if (token == JsonToken.VALUE_NULL
                        || node == null
                        || node.isNull()
                        || node.isMissingNode()
                        || (node.isTextual() && node.textValue().isEmpty())) continue;
                if (!(node instanceof ObjectNode object)) {
                    throw invalid(
                            file,
                            line,
                            "expected an object, found "
                                    + node.getNodeType().name().toLowerCase(Locale.ROOT));
                }
                if (object.path("kind").asText("").isEmpty())
                    throw invalid(file, line, "the object has no kind");
                if (object.path("metadata").path("name").asText("").isEmpty()) {
                    throw invalid(
                            file,
                            line,
                            "the " + object.path("kind").asText() + " has no metadata.name");
                }
                JsonNode annotations = object.path("metadata").path("annotations");
                if (!annotations.isMissingNode()
                        && !annotations.isNull()
                        && !annotations.isObject()) {
                    throw invalid(file, line, "metadata.annotations must be a map of strings");
                }
                Manifest m = Manifest.of(file, line, object);
                if (!seen.add(m.id())) throw invalid(file, line, "duplicate resource " + m.id());
                out.add(m);
            }
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw invalid(file, line, Mappers.problem(e));
        } catch (IOException e) {
            throw new ReleaseException(Reason.MANIFEST_INVALID, file + ": " + e.getMessage(), e);
        }
        return out;
    }

    private static ReleaseException invalid(String file, int line, String why) {
        return new ReleaseException(
                Reason.MANIFEST_INVALID, file + (line > 0 ? ":" + line : "") + ": " + why);
    }
}
