package io.upshift.graph.model;

import java.util.List;

/** Updates (from, to versions) that are recommended only where none of {@code risks} applies. */
public record ConditionalEdges(List<Edge> edges, List<Risk> risks) {

    public ConditionalEdges {
        edges = List.copyOf(edges);
        risks = List.copyOf(risks);
    }

    /** One conditional update, by versions. */
    public record Edge(String from, String to) {}
}
