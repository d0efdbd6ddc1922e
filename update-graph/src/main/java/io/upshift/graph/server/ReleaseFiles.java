package io.upshift.graph.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.api.json.Mappers;
import io.upshift.base.version.SemVer;
import io.upshift.graph.model.GraphException;
import io.upshift.graph.model.ReleaseEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Releases from a directory, one JSON file each: the release-metadata fields ({@code version},
 * {@code previous}, {@code next}, {@code metadata}) plus {@code architecture} and {@code payload}
 * (a pullspec by digest).
 */
public final class ReleaseFiles {

    private static final ObjectMapper JSON = Mappers.JSON;

    private ReleaseFiles() {}

    public static List<ReleaseEntry> load(Path dir) throws GraphException {
        if (!Files.isDirectory(dir))
            throw new GraphException(
                    "invalid_release", "releases directory " + dir + " does not exist");
        List<ReleaseEntry> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList())
                out.add(read(f));
        } catch (IOException e) {
            throw new GraphException(
                    "invalid_release", dir + ": cannot list releases: " + e.getMessage(), e);
        }
        return out;
    }

    static ReleaseEntry read(Path f) throws GraphException {
        JsonNode doc;
        try {
            doc = JSON.readTree(f.toFile());
        } catch (IOException e) {
            throw invalid(
                    f,
                    "not JSON: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
        if (doc == null || !doc.isObject()) throw invalid(f, "expected a JSON object");
        String version = doc.path("version").asText("");
        if (!SemVer.isValid(version))
            throw invalid(f, "version \"" + version + "\" is not a semantic version");
        String arch = doc.path("architecture").asText("amd64");
        if (!ReleaseEntry.ARCHITECTURES.contains(arch))
            throw invalid(
                    f, "architecture \"" + arch + "\" is not one of " + ReleaseEntry.ARCHITECTURES);
        String payload = doc.path("payload").asText("");
        if (!payload.matches(".+@sha256:[0-9a-f]{64}"))
            throw invalid(
                    f,
                    "payload \"" + payload + "\" is not a pullspec by digest (…@sha256:<64 hex>)");
        Map<String, String> metadata = new LinkedHashMap<>();
        doc.path("metadata")
                .fields()
                .forEachRemaining(e -> metadata.put(e.getKey(), e.getValue().asText()));
        return new ReleaseEntry(
                version,
                versions(f, doc, "previous"),
                versions(f, doc, "next"),
                metadata,
                arch,
                payload);
    }

    private static List<String> versions(Path f, JsonNode doc, String field) throws GraphException {
        List<String> out = new ArrayList<>();
        for (JsonNode v : doc.path(field)) {
            if (!SemVer.isValid(v.asText("")))
                throw invalid(f, field + " holds \"" + v.asText() + "\", not a semantic version");
            out.add(v.asText());
        }
        return out;
    }

    private static GraphException invalid(Path f, String why) {
        return new GraphException("invalid_release", f + ": " + why);
    }
}
