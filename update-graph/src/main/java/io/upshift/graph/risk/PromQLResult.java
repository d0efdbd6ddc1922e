package io.upshift.graph.risk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.api.json.Mappers;
import java.io.IOException;

/**
 * Reads a Prometheus {@code /api/v1/query} answer as a risk rule outcome: one sample, of value 0 or
 * 1.
 */
public final class PromQLResult {

    private static final ObjectMapper JSON = Mappers.JSON;

    private PromQLResult() {}

    public static boolean parse(byte[] body) throws RuleMatcher.RuleException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            throw new RuleMatcher.RuleException("the PromQL answer is not JSON");
        }
        if (root == null || !"success".equals(root.path("status").asText())) {
            throw new RuleMatcher.RuleException(
                    "PromQL query failed: "
                            + (root == null
                                            ? "empty answer"
                                            : root.path("errorType").asText("")
                                                    + " "
                                                    + root.path("error").asText(""))
                                    .strip());
        }
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
        switch (value) {
            case "0":
                return false;
            case "1":
                return true;
            default:
                throw new RuleMatcher.RuleException(
                        "invalid PromQL result (must be 0 or 1): " + value);
        }
    }
}
