package io.upshift.releases.taskgraph;

/**
 * How a payload is applied, which decides the shape of its task graph and how many workers run it.
 */
public enum Mode {
    /** First install: every component at once, so the cluster reaches steady state quickly. */
    INITIALIZING("Initializing"),
    /**
     * Moving to another release: run-levels in series, components within a run-level in parallel,
     * strict.
     */
    UPDATING("Updating"),
    /**
     * Keeping an applied release applied: flattened, order permuted per attempt so no component
     * starves the rest.
     */
    RECONCILING("Reconciling");

    private final String display;

    Mode(String display) {
        this.display = display;
    }

    /**
     * Workers applying the graph by default: the reference's 16 for updates, 2 for reconciling, all
     * nodes at install.
     */
    public int defaultWorkers(TaskGraph graph) {
        return switch (this) {
            case INITIALIZING -> Math.max(1, graph.nodes().size());
            case UPDATING -> 16;
            case RECONCILING -> 2;
        };
    }

    @Override
    public String toString() {
        return display;
    }
}
