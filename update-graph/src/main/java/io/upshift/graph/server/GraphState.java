package io.upshift.graph.server;

import io.upshift.graph.model.GraphBuilder;
import io.upshift.graph.model.GraphException;
import io.upshift.graph.model.GraphJson;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The graph being served, immutable once built, with the JSON of each channel and architecture
 * cached on first request; replaced whole on reload, so a request sees one graph from start to end.
 */
final class GraphState {

    private final GraphBuilder.Built built;
    private final Instant loadedAt;
    private final ConcurrentHashMap<String, byte[]> json = new ConcurrentHashMap<>();

    GraphState(GraphBuilder.Built built, Instant loadedAt) {
        this.built = built;
        this.loadedAt = loadedAt;
    }

    Instant loadedAt() {
        return loadedAt;
    }

    int nodes() {
        return built.nodes().size();
    }

    byte[] json(String channel, String arch) throws GraphException {
        String key = channel + "\n" + arch;
        byte[] cached = json.get(key);
        if (cached != null) return cached;
        byte[] fresh = GraphJson.write(GraphBuilder.serve(built, channel, arch));
        json.putIfAbsent(key, fresh);
        return fresh;
    }
}
