package io.upshift.status.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.api.json.Mappers;
import io.upshift.status.model.Alert;
import io.upshift.status.model.Times;
import java.io.IOException;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Alerts as Prometheus serves them ({@code /api/v1/alerts}: {@code
 * {"status":"success","data":{"alerts":[...]}}}, also what {@code oc adm inspect-alerts} prints) or
 * as Alertmanager serves them ({@code /api/v2/alerts}: a list with {@code startsAt} and {@code
 * status.state}).
 */
public final class AlertsFile {
    private static final ObjectMapper JSON = Mappers.JSON;

    private AlertsFile() {}

    public static List<Alert> parse(String where, byte[] content) {
        JsonNode root;
        try {
            root = JSON.readTree(content);
        } catch (IOException e) {
            throw new SnapshotException(
                    where + ": not valid JSON: " + e.getMessage().lines().findFirst().orElse(""),
                    e);
        }
        if (root == null) {
            throw new SnapshotException(where + ": empty; expected alerts JSON");
        }
        List<Alert> alerts = new ArrayList<>();
        if (root.isArray()) {
            for (int i = 0; i < root.size(); i++) {
                JsonNode a = root.get(i);
                String state = a.path("status").path("state").asText("active");
                alerts.add(
                        alert(
                                where,
                                "[" + i + "]",
                                a,
                                state.equals("active") ? "firing" : state,
                                "startsAt"));
            }
            return alerts;
        }
        if (!root.path("status").asText("").equals("success") || !root.path("data").has("alerts")) {
            throw new SnapshotException(
                    where
                            + ": expected {\"status\":\"success\",\"data\":{\"alerts\":[...]}} or"
                            + " an Alertmanager alert list");
        }
        JsonNode list = root.path("data").path("alerts");
        for (int i = 0; i < list.size(); i++) {
            JsonNode a = list.get(i);
            alerts.add(
                    alert(
                            where,
                            "data.alerts[" + i + "]",
                            a,
                            a.path("state").asText(""),
                            "activeAt"));
        }
        return alerts;
    }

    private static Map<String, String> labels(JsonNode labels) {
        Map<String, String> out = new TreeMap<>();
        labels.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText("")));
        return out;
    }

    private static Alert alert(
            String where, String position, JsonNode a, String state, String timeField) {
        JsonNode labels = a.path("labels");
        JsonNode annotations = a.path("annotations");
        String time = a.path(timeField).asText("");
        try {
            return new Alert(
                    labels.path("alertname").asText(""),
                    labels.path("namespace").asText(""),
                    labels.path("severity").asText(""),
                    state,
                    Times.parse(time),
                    annotations.path("summary").asText(""),
                    annotations.path("description").asText(""),
                    annotations.path("message").asText(""),
                    annotations.path("runbook_url").asText(""),
                    labels(labels));
        } catch (DateTimeParseException e) {
            throw new SnapshotException(
                    where
                            + ": "
                            + position
                            + "."
                            + timeField
                            + ": not a timestamp: \""
                            + time
                            + "\"",
                    e);
        }
    }
}
