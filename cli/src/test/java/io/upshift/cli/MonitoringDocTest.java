package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.clusterversion.metrics.Gauges;
import io.upshift.pools.metrics.ControllerFamilies;
import io.upshift.pools.metrics.DaemonFamilies;
import io.upshift.pools.metrics.Family;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/monitoring.md cannot drift: each component's metric table names exactly the metrics the code
 * exports, with their labels, and the alerts section has a runbook for exactly the alerts of
 * deploy/monitoring/.
 */
class MonitoringDocTest {
    static final Path DOC = Path.of("../docs/monitoring.md");

    @Test
    void everyMetricOfEachComponentIsDocumentedWithItsLabels() throws Exception {
        Map<String, Map<String, String>> tables = metricTables(Files.readString(DOC));
        Map<String, String> operator = new LinkedHashMap<>();
        for (Gauges.Gauge g : Gauges.ALL) operator.put(g.name(), String.join(", ", g.labels()));
        assertThat(tables.get("Cluster-version operator")).isEqualTo(operator);
        assertThat(tables.get("Pool controller")).isEqualTo(labels(ControllerFamilies.ALL));
        assertThat(tables.get("Node agent")).isEqualTo(labels(DaemonFamilies.ALL));
    }

    @Test
    void everyAlertHasARunbookAndNoOtherIsDescribed() throws Exception {
        String doc = Files.readString(DOC);
        String alerts = doc.substring(doc.indexOf("\n## Alerts\n"));
        List<String> described = new ArrayList<>();
        for (String line : alerts.split("\n"))
            if (line.startsWith("### ")) described.add(line.substring(4).strip());
        assertThat(described).containsExactlyInAnyOrderElementsOf(AlertRulesTest.alertNames());
    }

    private static Map<String, String> labels(List<Family> families) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Family f : families) out.put(f.name(), String.join(", ", f.labels()));
        return out;
    }

    /** Under "## Metrics": each "### component" heading's table, metric name to its labels. */
    static Map<String, Map<String, String>> metricTables(String doc) {
        String metrics = doc.substring(doc.indexOf("\n## Metrics\n"), doc.indexOf("\n## Alerts\n"));
        Map<String, Map<String, String>> tables = new LinkedHashMap<>();
        Map<String, String> current = null;
        for (String line : metrics.split("\n")) {
            if (line.startsWith("### ")) {
                current = new LinkedHashMap<>();
                tables.put(line.substring(4).strip(), current);
            } else if (current != null && line.startsWith("| `")) {
                String[] cells = line.split("\\|");
                current.put(cells[1].strip().replace("`", ""), cells[2].strip());
            }
        }
        return tables;
    }
}
