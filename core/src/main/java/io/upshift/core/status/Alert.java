package io.upshift.core.status;

import java.time.Instant;

/** One alert as Prometheus or Alertmanager reports it; absent annotations are empty strings. */
public record Alert(String name, String namespace, String severity, String state, Instant activeAt,
                    String summary, String description, String message, String runbookUrl) {
}
