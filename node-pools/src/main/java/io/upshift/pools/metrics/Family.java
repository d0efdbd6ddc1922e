package io.upshift.pools.metrics;

import java.util.List;

/**
 * A metric family as Prometheus names it: its name, HELP text, type and label names (in the order
 * upstream declares them).
 */
public record Family(String name, String help, Type type, List<String> labels) {

    /** The exposition format's TYPE. */
    public enum Type {
        GAUGE,
        COUNTER
    }

    public Family {
        labels = List.copyOf(labels);
    }

    static Family gauge(String name, String help, String... labels) {
        return new Family(name, help, Type.GAUGE, List.of(labels));
    }

    static Family counter(String name, String help, String... labels) {
        return new Family(name, help, Type.COUNTER, List.of(labels));
    }

    /** A row of this family: label values in {@link #labels()} order, then the value. */
    public Row row(double value, String... labelValues) {
        return new Row(this, List.of(labelValues), value);
    }
}
