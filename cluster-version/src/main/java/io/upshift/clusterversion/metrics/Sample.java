package io.upshift.clusterversion.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of a gauge: the metric's name, its labels (in the order upstream declares them) and its
 * value.
 */
public record Sample(String name, Map<String, String> labels, double value) {

    public Sample {
        labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    }

    /**
     * A row with labels given as name, value pairs; a null value is exported as the empty string,
     * as Go's "" is.
     */
    static Sample of(String name, double value, String... labelPairs) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < labelPairs.length; i += 2)
            labels.put(labelPairs[i], labelPairs[i + 1] == null ? "" : labelPairs[i + 1]);
        return new Sample(name, labels, value);
    }
}
