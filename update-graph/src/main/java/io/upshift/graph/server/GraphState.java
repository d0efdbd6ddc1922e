package io.upshift.graph.server;

import io.upshift.graph.model.Graph;
import io.upshift.graph.model.GraphBuilder;
import io.upshift.graph.model.GraphException;
import io.upshift.graph.model.GraphJson;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The graph being served, immutable once built, with every channel and architecture it has nodes
 * for (and a request could name) prepared when it is built; any other channel serves one empty
 * graph, also prepared, so that requests naming channels at random hold no memory; replaced whole
 * on reload, so a request sees one graph from start to end, and a request costs no building,
 * serializing or compressing.
 */
final class GraphState {

    private final GraphBuilder.Built built;
    private final Instant loadedAt;
    private final Map<String, Map<String, PreparedGraph>> byArch = new HashMap<>();
    private final PreparedGraph empty;
    private final int prepared;

    GraphState(GraphBuilder.Built built, Instant loadedAt, String cacheControl)
            throws GraphException {
        this.built = built;
        this.loadedAt = loadedAt;
        this.empty =
                new PreparedGraph(
                        GraphJson.write(Graph.of(List.of(), List.of(), List.of())), cacheControl);
        int n = 0;
        for (Map.Entry<String, Set<String>> arch : GraphBuilder.channelsByArch(built).entrySet()) {
            // what no request can name is not prepared
            if (!GraphService.ARCH.matcher(arch.getKey()).matches()) continue;
            Map<String, PreparedGraph> channels = new HashMap<>();
            for (String channel : arch.getValue()) {
                if (!GraphService.CHANNEL.matcher(channel).matches()) continue;
                byte[] json = GraphJson.write(GraphBuilder.serve(built, channel, arch.getKey()));
                channels.put(channel, new PreparedGraph(json, cacheControl));
                n++;
            }
            byArch.put(arch.getKey(), channels);
        }
        this.prepared = n;
    }

    Instant loadedAt() {
        return loadedAt;
    }

    int nodes() {
        return built.nodes().size();
    }

    /** Channel graphs prepared, all architectures. */
    int prepared() {
        return prepared;
    }

    /** The graph of a channel and architecture the graph has nodes for; null for any other. */
    PreparedGraph prepared(String channel, String arch) {
        Map<String, PreparedGraph> channels = byArch.get(arch);
        return channels == null ? null : channels.get(channel);
    }

    /** The graph of every other channel and architecture. */
    PreparedGraph empty() {
        return empty;
    }
}
