package io.upshift.graph.risk;

import io.upshift.graph.model.Risk;

/** Evaluates one matching rule against the cluster: true when the cluster is exposed. */
@FunctionalInterface
public interface RuleMatcher {

    boolean match(Risk.MatchingRule rule) throws RuleException;

    /**
     * The rule could not be evaluated; the message says why (query failed, not one sample, not 0 or
     * 1 ...).
     */
    final class RuleException extends Exception {
        public RuleException(String message) {
            super(message);
        }

        public RuleException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
