package io.upshift.status.snapshot;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes objects as a snapshot directory, one {@code List} file per kind ({@code nodes.yaml}, ...),
 * as kubectl dumps them.
 */
public final class SnapshotDump {
    /** As kubectl writes: no document start marker, no null fields. */
    private static final ObjectWriter YAML =
            Mappers.YAML
                    .copy()
                    .setSerializationInclusion(JsonInclude.Include.NON_NULL)
                    .writer()
                    .without(YAMLGenerator.Feature.WRITE_DOC_START_MARKER);

    private SnapshotDump() {}

    public static void write(Path dir, List<? extends HasMetadata> objects) throws IOException {
        Files.createDirectories(dir);
        Map<String, List<HasMetadata>> byKind = new LinkedHashMap<>();
        for (HasMetadata o : objects) {
            byKind.computeIfAbsent(o.getKind(), k -> new ArrayList<>()).add(o);
        }
        for (Map.Entry<String, List<HasMetadata>> e : byKind.entrySet()) {
            Map<String, Object> list = new LinkedHashMap<>();
            list.put("apiVersion", "v1");
            list.put("kind", "List");
            list.put("items", e.getValue());
            YAML.writeValue(
                    dir.resolve(e.getKey().toLowerCase(Locale.ROOT) + "s.yaml").toFile(), list);
        }
    }
}
