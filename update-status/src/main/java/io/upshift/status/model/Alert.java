package io.upshift.status.model;

import java.time.Instant;
import java.util.Map;

/**
 * One alert as Prometheus or Alertmanager reports it; absent annotations are empty strings; {@code
 * labels} holds every label (e.g. {@code poddisruptionbudget}, {@code openShiftUpdatePrecheck}).
 */
public record Alert(
        String name,
        String namespace,
        String severity,
        String state,
        Instant activeAt,
        String summary,
        String description,
        String message,
        String runbookUrl,
        Map<String, String> labels) {

    public Alert {
        labels = Map.copyOf(labels);
    }

    public String label(String name) {
        return labels.getOrDefault(name, "");
    }
}
