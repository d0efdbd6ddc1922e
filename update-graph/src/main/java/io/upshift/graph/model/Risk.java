package io.upshift.graph.model;

import java.util.List;

/**
 * A known issue of some updates: it applies to a cluster when its matching rules say so, evaluated
 * in order ({@code Always}, or {@code PromQL} against the cluster's monitoring).
 */
public record Risk(String url, String name, String message, List<MatchingRule> matchingRules) {

    public Risk {
        matchingRules = List.copyOf(matchingRules);
    }

    /** One rule: {@code type} Always or PromQL; {@code promql} the query for PromQL, else null. */
    public record MatchingRule(String type, String promql) {
        public static MatchingRule always() {
            return new MatchingRule("Always", null);
        }
    }
}
