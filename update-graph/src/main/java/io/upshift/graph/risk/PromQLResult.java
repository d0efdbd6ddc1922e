package io.upshift.graph.risk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a Prometheus {@code /api/v1/query} answer as a risk rule outcome, one sample of value 0 or
 * 1, in the words of upstream's promql condition over the Prometheus Go client: an answer that is
 * not a success is "executing PromQL query: " and the client's error ({@code client_error: client
 * error: 401} for a refused token, {@code bad_data: ...} for a query Prometheus rejects).
 */
public final class PromQLResult {

    private static final ObjectMapper JSON = Mappers.JSON;
    private static final String EXECUTING = "executing PromQL query: ";

    private PromQLResult() {}

    /** The outcome of an answer with HTTP status {@code code} and {@code body}. */
    public static boolean parse(int code, byte[] body) throws RuleMatcher.RuleException {
        JsonNode data = data(code, body);
        if (!"vector".equals(data.path("resultType").asText())) {
            throw new RuleMatcher.RuleException(
                    "invalid PromQL result type is "
                            + data.path("resultType").asText("missing")
                            + ", not vector");
        }
        JsonNode result = data.path("result");
        if (result.size() != 1)
            throw new RuleMatcher.RuleException(
                    "invalid PromQL result length must be one, but is " + result.size());
        String value = result.get(0).path("value").path(1).asText("");
        return switch (value) {
            case "0" -> false;
            case "1" -> true;
            default ->
                    throw new RuleMatcher.RuleException(
                            "invalid PromQL result (must be 0 or 1): " + value);
        };
    }

    /**
     * Every sample of an answer whose result is an instant vector (or a scalar, one sample with no
     * labels), for queries that may answer any number of series (the node pools' health gates).
     *
     * @throws RuleMatcher.RuleException as {@link #parse}, or when the result is a matrix or string
     */
    public static List<PromQLSample> samples(int code, byte[] body)
            throws RuleMatcher.RuleException {
        JsonNode data = data(code, body);
        String type = data.path("resultType").asText("missing");
        JsonNode result = data.path("result");
        List<PromQLSample> out = new ArrayList<>();
        switch (type) {
            case "scalar" -> out.add(new PromQLSample(Map.of(), result.path(1).asText("")));
            case "vector" -> {
                for (JsonNode r : result) {
                    Map<String, String> labels = new TreeMap<>();
                    r.path("metric")
                            .fields()
                            .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
                    out.add(new PromQLSample(labels, r.path("value").path(1).asText("")));
                }
            }
            default ->
                    throw new RuleMatcher.RuleException(
                            "invalid PromQL result type is " + type + ", not vector or scalar");
        }
        return out;
    }

    /** The answer's {@code data}, once it is known to be a success. */
    private static JsonNode data(int code, byte[] body) throws RuleMatcher.RuleException {
        // Prometheus answers a bad query 400 or 422 with an error body; any other status that is
        // not a success is the server's or the client's fault, whatever the body says
        boolean apiError = code == 400 || code == 422;
        if (code / 100 != 2 && !apiError) {
            throw new RuleMatcher.RuleException(
                    EXECUTING
                            + switch (code / 100) {
                                case 4 -> "client_error: client error: " + code;
                                case 5 -> "server_error: server error: " + code;
                                default -> "bad_response: bad response code " + code;
                            });
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            root = null;
        }
        if (root == null || !root.isObject())
            throw new RuleMatcher.RuleException(
                    EXECUTING + "bad_response: the answer is not a JSON object");
        String status = root.path("status").asText("");
        if ("error".equals(status)) {
            throw new RuleMatcher.RuleException(
                    EXECUTING
                            + root.path("errorType").asText("")
                            + ": "
                            + root.path("error").asText(""));
        }
        if (apiError)
            throw new RuleMatcher.RuleException(
                    EXECUTING + "bad_response: inconsistent body for response code");
        return root.path("data");
    }
}
