package io.upshift.graph.model;

/**
 * An invalid graph, graph data or request. {@code kind} is what the graph service's error JSON says
 * ({@code {"kind": ..., "value": message}}), e.g. {@code invalid_params} or {@code
 * invalid_graph_data}.
 */
public final class GraphException extends Exception {

    private final String kind;

    public GraphException(String kind, String message) {
        super(message);
        this.kind = kind;
    }

    public GraphException(String kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public String kind() {
        return kind;
    }
}
