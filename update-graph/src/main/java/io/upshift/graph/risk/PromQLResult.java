package io.upshift.graph.risk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.api.json.Mappers;
import java.io.IOException;

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
        JsonNode data = root.path("data");
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
}
