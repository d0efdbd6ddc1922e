package io.upshift.graph.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.api.files.BoundedFiles;
import io.upshift.api.json.Mappers;
import io.upshift.base.version.SemVer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

/**
 * Graph data in the cincinnati-graph-data layout: {@code version} (schema 1.x), {@code
 * channels/*.yaml} (name, versions), {@code blocked-edges/*.yaml} (to, from regex, and for a
 * conditional block url, name, message, matchingRules) and {@code raw/metadata.json} (metadata to
 * add per version).
 */
public record GraphData(
        String schemaVersion,
        List<Channel> channels,
        List<Block> blocks,
        Map<String, Map<String, String>> rawMetadata) {

    /**
     * A channel and the versions in it (a version may carry {@code +arch} to name one
     * architecture).
     */
    public record Channel(String name, List<String> versions) {}

    /**
     * An edge block: into {@code to}, from versions ({@code version+arch}) matching {@code from}; a
     * risk makes it conditional.
     */
    public record Block(String file, String to, Pattern from, Risk risk) {
        public boolean conditional() {
            return risk != null;
        }
    }

    private static final ObjectMapper YAML = Mappers.YAML;
    private static final ObjectMapper JSON = Mappers.JSON;
    private static final Pattern YAML_FILE = Pattern.compile(".*\\.ya+ml$");

    /** The largest graph-data file read (upstream's are a few kilobytes). */
    public static final long FILE_LIMIT = 16L << 20;

    /**
     * Loads and validates {@code dir}.
     *
     * @throws GraphException {@code invalid_graph_data} naming the file and what is wrong in it
     */
    public static GraphData load(Path dir) throws GraphException {
        String version = read(dir.resolve("version")).strip();
        if (!SemVer.isValid(version))
            throw invalid(dir.resolve("version"), "\"" + version + "\" is not a semantic version");
        if (SemVer.parse(version).major() != 1)
            throw invalid(
                    dir.resolve("version"),
                    "graph-data schema " + version + " is not supported (1.x is)");
        List<Channel> channels = new ArrayList<>();
        for (Path f : yamlFiles(dir.resolve("channels"))) {
            JsonNode doc = yaml(f);
            String name = doc.path("name").asText("");
            if (!name.matches("[0-9a-z\\-.]+"))
                throw invalid(f, "name \"" + name + "\" is not a channel name ([0-9a-z.-]+)");
            List<String> versions = new ArrayList<>();
            for (JsonNode v : doc.path("versions"))
                versions.add(semver(f, "versions", v.asText("")));
            channels.add(new Channel(name, versions));
        }
        List<Block> blocks = new ArrayList<>();
        for (Path f : yamlFiles(dir.resolve("blocked-edges"))) {
            JsonNode doc = yaml(f);
            String to = semver(f, "to", doc.path("to").asText(""));
            Pattern from;
            try {
                from = Pattern.compile(doc.path("from").asText(""));
            } catch (PatternSyntaxException e) {
                throw invalid(
                        f,
                        "from \""
                                + doc.path("from").asText("")
                                + "\" is not a regular expression: "
                                + e.getDescription());
            }
            Risk risk = null;
            if (doc.has("matchingRules")) {
                List<Risk.MatchingRule> rules = new ArrayList<>();
                for (JsonNode r : doc.path("matchingRules")) {
                    String type = r.path("type").asText("");
                    if (type.equals("PromQL")) {
                        String q = r.path("promql").path("promql").asText("");
                        if (q.isBlank())
                            throw invalid(f, "a PromQL matching rule has no promql.promql");
                        rules.add(new Risk.MatchingRule(type, q));
                    } else {
                        rules.add(new Risk.MatchingRule(type, null));
                    }
                }
                for (String field : List.of("url", "name", "message")) {
                    if (doc.path(field).asText("").isEmpty())
                        throw invalid(f, "a conditional block needs " + field);
                }
                risk =
                        new Risk(
                                doc.path("url").asText(),
                                doc.path("name").asText(),
                                doc.path("message").asText(),
                                rules);
            }
            blocks.add(new Block(f.getFileName().toString(), to, from, risk));
        }
        Map<String, Map<String, String>> raw = new LinkedHashMap<>();
        Path rawFile = dir.resolve("raw/metadata.json");
        if (Files.exists(rawFile)) {
            try {
                JsonNode doc = JSON.readTree(bytes(rawFile));
                for (var e = doc.fields(); e.hasNext(); ) {
                    var entry = e.next();
                    semver(rawFile, "key", entry.getKey());
                    Map<String, String> m = new LinkedHashMap<>();
                    entry.getValue()
                            .fields()
                            .forEachRemaining(kv -> m.put(kv.getKey(), kv.getValue().asText()));
                    raw.put(entry.getKey(), m);
                }
            } catch (BoundedFiles.Refused e) {
                throw new GraphException("invalid_graph_data", e.getMessage(), e);
            } catch (IOException e) {
                throw invalid(
                        rawFile,
                        "not JSON: "
                                + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            }
        }
        return new GraphData(version, channels, blocks, raw);
    }

    private static List<Path> yamlFiles(Path dir) throws GraphException {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> YAML_FILE.matcher(p.getFileName().toString()).matches())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new GraphException("invalid_graph_data", dir + ": " + e.getMessage(), e);
        }
    }

    private static JsonNode yaml(Path f) throws GraphException {
        try {
            JsonNode doc = YAML.readTree(bytes(f));
            if (doc == null || !doc.isObject()) throw invalid(f, "expected a YAML mapping");
            return doc;
        } catch (BoundedFiles.Refused e) {
            throw new GraphException("invalid_graph_data", e.getMessage(), e);
        } catch (IOException e) {
            throw invalid(
                    f,
                    "invalid YAML: "
                            + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }

    private static String read(Path f) throws GraphException {
        try {
            return new String(bytes(f), StandardCharsets.UTF_8);
        } catch (BoundedFiles.Refused e) {
            throw new GraphException("invalid_graph_data", e.getMessage(), e);
        } catch (IOException e) {
            throw new GraphException(
                    "invalid_graph_data", f + ": cannot read: " + e.getMessage(), e);
        }
    }

    private static byte[] bytes(Path f) throws IOException {
        return BoundedFiles.read(f, f.toString(), FILE_LIMIT, "a graph-data file");
    }

    private static String semver(Path f, String field, String v) throws GraphException {
        if (!SemVer.isValid(v))
            throw invalid(f, field + " \"" + v + "\" is not a semantic version");
        return v;
    }

    private static GraphException invalid(Path f, String why) {
        return new GraphException("invalid_graph_data", f + ": " + why);
    }
}
