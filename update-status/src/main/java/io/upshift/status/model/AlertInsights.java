package io.upshift.status.model;

import io.upshift.api.update.ImpactLevel;
import io.upshift.api.update.ResourceRef;
import io.upshift.api.update.ScopeType;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Firing alerts that matter to the update: those that started during it, and a few known to affect
 * updates.
 */
final class AlertInsights {
    /** Shown even when they fired before the update started. */
    private static final Set<String> KNOWN_TO_AFFECT_UPDATES =
            Set.of("PodDisruptionBudgetLimit", "PodDisruptionBudgetAtLimit");

    private AlertInsights() {}

    static void add(List<Alert> alerts, Instant updateStarted, List<HealthInsights.Keyed> health) {
        for (Alert alert : alerts) {
            String name = alert.name();
            if (name == null || name.isEmpty()) {
                continue;
            }
            boolean duringUpdate =
                    alert.activeAt() != null && updateStarted.isBefore(alert.activeAt());
            String description;
            if (KNOWN_TO_AFFECT_UPDATES.contains(name)) {
                description =
                        duringUpdate
                                ? "Alert known to affect updates started firing during the update."
                                : "Alert known to affect updates has been firing since before the"
                                        + " update started.";
            } else if (duringUpdate) {
                description = "Alert started firing during the update.";
            } else {
                continue;
            }
            if ("pending".equals(alert.state())) {
                continue;
            }
            ImpactLevel level =
                    switch (alert.severity() == null ? "" : alert.severity()) {
                        case "warning" -> ImpactLevel.Warning;
                        case "critical" -> ImpactLevel.Critical;
                        default -> null;
                    };
            if (level == null) {
                continue;
            }
            String d = alert.description();
            String m = alert.message();
            if (!m.isEmpty() && !d.isEmpty()) {
                description += " The alert description is: " + d + " | " + m;
            } else if (!d.isEmpty()) {
                description += " The alert description is: " + d;
            } else if (!m.isEmpty()) {
                description += " The alert description is: " + m;
            } else {
                description += " The alert has no description.";
            }
            String runbook =
                    alert.runbookUrl().isEmpty()
                            ? "<alert does not have a runbook_url annotation>"
                            : alert.runbookUrl();
            String summary = alert.summary().isEmpty() ? name : alert.summary();
            String namespace =
                    alert.namespace() == null || alert.namespace().isEmpty()
                            ? null
                            : alert.namespace();
            health.add(
                    HealthInsights.of(
                            "alert-" + (namespace == null ? "" : namespace + "-") + name,
                            alert.activeAt(),
                            ScopeType.Cluster,
                            new ResourceRef(HealthInsights.CONFIG_GROUP, "alerts", name, namespace),
                            level,
                            "Unknown",
                            "Alert is firing: " + summary,
                            description,
                            runbook));
        }
    }
}
