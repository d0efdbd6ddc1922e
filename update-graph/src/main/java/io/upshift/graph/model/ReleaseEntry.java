package io.upshift.graph.model;

import java.util.List;
import java.util.Map;

/**
 * A release as the graph service learns it (from a release image or a release file): its
 * release-metadata fields, architecture and pullspec by digest.
 */
public record ReleaseEntry(
        String version,
        List<String> previous,
        List<String> next,
        Map<String, String> metadata,
        String architecture,
        String payload) {

    public static final List<String> ARCHITECTURES =
            List.of("amd64", "arm64", "s390x", "ppc64le", "multi");

    public ReleaseEntry {
        previous = List.copyOf(previous);
        next = List.copyOf(next);
        metadata = Map.copyOf(metadata);
    }
}
