package io.upshift.graph.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The inputs of a small graph for service tests: three releases of channel stable-1.0. */
final class SmallGraph {
    private SmallGraph() {}

    /** Writes {@code dir/releases} and {@code dir/data}; returns them as a source. */
    static GraphSource write(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("releases"));
        Files.createDirectories(dir.resolve("data/channels"));
        Files.writeString(dir.resolve("data/version"), "1.1.0");
        Files.writeString(
                dir.resolve("data/channels/stable-1.0.yaml"),
                "name: stable-1.0\nversions: [1.0.0, 1.0.1, 1.0.2]\n");
        for (int i = 0; i < 3; i++) {
            Files.writeString(
                    dir.resolve("releases/1.0." + i + ".json"),
                    "{\"version\":\"1.0."
                            + i
                            + "\",\"previous\":["
                            + (i == 0 ? "" : "\"1.0." + (i - 1) + "\"")
                            + "],\"architecture\":\"amd64\",\"payload\":\"registry.example/release@sha256:"
                            + "a".repeat(63)
                            + i
                            + "\"}");
        }
        return GraphSource.files(dir.resolve("releases"), dir.resolve("data"));
    }
}
