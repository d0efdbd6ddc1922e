package io.upshift.graph.risk;

import java.util.Map;

/**
 * One sample of a PromQL instant query's answer: its series' labels and its value as Prometheus
 * writes it ({@code "1"}, {@code "0.5"}, {@code "NaN"} ...).
 */
public record PromQLSample(Map<String, String> labels, String value) {
    public PromQLSample {
        labels = Map.copyOf(labels);
    }

    /** The value is a number other than zero ({@code NaN} is not). */
    public boolean isNonZero() {
        try {
            double v = Double.parseDouble(value);
            return !Double.isNaN(v) && v != 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
