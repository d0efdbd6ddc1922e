package io.upshift.graph.risk;

import io.upshift.graph.model.Risk;
import io.upshift.graph.updates.ConditionalTarget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether risks apply to this cluster and whether conditional updates are recommended, as the
 * reference decides: a risk's rules are tried in order and the first that evaluates decides;
 * Recommended is True when no risk applies (or every applying risk is accepted), False naming the
 * applying risk (MultipleReasons for several), Unknown when an evaluation failed.
 */
public final class RiskEvaluation {

    private static final Pattern REASON =
            Pattern.compile("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$");

    private RiskEvaluation() {}

    /**
     * {@code _id=""} in a PromQL rule becomes this cluster's id, so rules can target one cluster.
     */
    public static String injectClusterId(String promql, String clusterId) {
        return promql.replace("_id=\"\"", "_id=\"" + clusterId + "\"");
    }

    /** The Applies condition of {@code risk}. */
    public static RiskCondition applies(
            Risk risk, MatchCache cache, RuleMatcher matcher, Instant now) {
        List<String> errors = new ArrayList<>();
        for (Risk.MatchingRule rule : risk.matchingRules()) {
            try {
                boolean match = "Always".equals(rule.type()) || cache.match(rule, now, matcher);
                return match
                        ? new RiskCondition("Applies", "True", "Match", "")
                        : new RiskCondition("Applies", "False", "NotMatch", "");
            } catch (RuleMatcher.RuleException e) {
                errors.add(e.getMessage());
            }
        }
        // as Kubernetes' error aggregate: one error as itself, several as [e1, e2]
        String why =
                errors.isEmpty()
                        ? "no matching rule could be evaluated"
                        : errors.size() == 1
                                ? errors.get(0)
                                : "[" + String.join(", ", errors) + "]";
        return new RiskCondition(
                "Applies",
                "Unknown",
                "EvaluationFailed",
                "Could not evaluate exposure to update risk "
                        + risk.name()
                        + " ("
                        + why
                        + ")\n  "
                        + risk.name()
                        + " description: "
                        + risk.message()
                        + "\n  "
                        + risk.name()
                        + " URL: "
                        + risk.url());
    }

    /** The Recommended condition of {@code update}, given each risk's Applies condition by name. */
    public static RiskCondition recommended(
            ConditionalTarget update, Map<String, RiskCondition> applies, Set<String> acceptRisks) {
        String status = "True", reason = "NotExposedToRisks";
        String message =
                "The update is recommended, because none of the conditional update risks apply to"
                        + " this cluster.";
        List<String> errors = new ArrayList<>();
        for (Risk risk : update.risks()) {
            RiskCondition a = applies.get(risk.name());
            String s = a == null ? "Unknown" : a.status();
            if (s.equals("Unknown")) {
                status = combine(status, "Unknown");
                reason = reason(reason, "EvaluationFailed");
                errors.add(
                        a == null
                                ? "failed to find risk condition for risk " + risk.name()
                                : a.message());
            } else if (s.equals("True")) {
                if (acceptRisks.contains(risk.name())) {
                    status = combine(status, "True");
                    reason = reason(reason, "AllExposedRisksAccepted");
                    message =
                            "The update is recommended, because either risk does not apply to this"
                                    + " cluster or it is accepted by cluster admins.";
                } else {
                    status = combine(status, "False");
                    reason =
                            reason(
                                    reason,
                                    REASON.matcher(risk.name()).matches()
                                            ? risk.name()
                                            : "ExposedToRisks");
                    errors.add(risk.message() + " " + risk.url());
                }
            }
        }
        if (!errors.isEmpty()) message = String.join("\n\n", errors);
        return new RiskCondition("Recommended", status, reason, message);
    }

    private static String combine(String now, String want) {
        if (now.equals("False") || want.equals("False")) return "False";
        if (now.equals("Unknown") || want.equals("Unknown")) return "Unknown";
        return want;
    }

    private static String reason(String now, String want) {
        if (now.equals("NotExposedToRisks")
                || (now.equals("AllExposedRisksAccepted") && !want.equals("NotExposedToRisks"))
                || (now.equals("EvaluationFailed") && want.equals("ExposedToRisks"))
                || now.equals(want)) {
            return want;
        }
        if (want.equals("NotExposedToRisks")
                || (now.equals("EvaluationFailed") && want.equals("AllExposedRisksAccepted"))
                || (now.equals("ExposedToRisks")
                        && (want.equals("AllExposedRisksAccepted")
                                || want.equals("EvaluationFailed")))) {
            return now;
        }
        return "MultipleReasons";
    }
}
