package io.upshift.graph.risk;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.graph.model.Risk;
import io.upshift.graph.updates.ConditionalTarget;
import io.upshift.graph.updates.Target;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RiskEvaluationTest {

    static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");
    static final Risk.MatchingRule A = new Risk.MatchingRule("PromQL", "a"),
            B = new Risk.MatchingRule("PromQL", "b");

    static Risk risk(String name, Risk.MatchingRule... rules) {
        return new Risk("https://example.com/" + name, name, name + " hurts.", List.of(rules));
    }

    @Test
    void cacheLimitsEvaluationsAndServesTheMostStaleFirst() throws Exception {
        MatchCache cache = MatchCache.standard();
        List<String> evaluated = new ArrayList<>();
        RuleMatcher m =
                r -> {
                    evaluated.add(r.promql());
                    return r.promql().equals("a");
                };
        assertThat(cache.match(A, T0, m)).isTrue();
        // within the same second: B is not evaluated, and says so
        assertThatThrownBy(() -> cache.match(B, T0.plusMillis(500), m))
                .hasMessage("evaluation is throttled until 00:00:01Z");
        // a second later B, asked before, is the most stale and gets the call
        assertThat(cache.match(B, T0.plusSeconds(2), m)).isFalse();
        // A again within the hour: cached
        assertThat(cache.match(A, T0.plusSeconds(10), m)).isTrue();
        assertThat(evaluated).containsExactly("a", "b");
        // after an hour A is due again
        cache.match(A, T0.plus(Duration.ofMinutes(61)), m);
        assertThat(evaluated).containsExactly("a", "b", "a");
        // after 24 h without being asked, B is forgotten: asking again evaluates it afresh
        assertThatThrownBy(
                        () ->
                                cache.match(
                                        B,
                                        T0.plus(Duration.ofHours(25)).plusSeconds(0),
                                        r -> {
                                            throw new RuleMatcher.RuleException("prometheus down");
                                        }))
                .hasMessage("prometheus down");
        assertThat(cache.evaluations()).isEqualTo(4);
    }

    @Test
    void appliesTriesRulesInOrder() {
        MatchCache cache = new MatchCache(Duration.ZERO, Duration.ZERO, Duration.ofHours(24));
        RuleMatcher failing =
                r -> {
                    throw new RuleMatcher.RuleException("timeout");
                };
        assertThat(
                        RiskEvaluation.applies(
                                risk("R", A, Risk.MatchingRule.always()), cache, failing, T0))
                .isEqualTo(new RiskCondition("Applies", "True", "Match", ""));
        RiskCondition unknown =
                RiskEvaluation.applies(risk("R", A), cache, failing, T0.plusSeconds(5));
        assertThat(unknown.status()).isEqualTo("Unknown");
        assertThat(unknown.reason()).isEqualTo("EvaluationFailed");
        assertThat(unknown.message())
                .startsWith(
                        "Could not evaluate exposure to update risk R (timeout)\n"
                                + "  R description: R hurts.");
        assertThat(
                        RiskEvaluation.applies(risk("R", B), cache, r -> false, T0.plusSeconds(9))
                                .reason())
                .isEqualTo("NotMatch");
        // several rules failing: every error, aggregated as Kubernetes' errors are (the second
        // rule of one pass is throttled, as upstream's cache throttles it)
        RuleMatcher each =
                r -> {
                    throw new RuleMatcher.RuleException(r.promql() + " failed");
                };
        assertThat(
                        RiskEvaluation.applies(
                                        risk(
                                                "S",
                                                new Risk.MatchingRule("PromQL", "c"),
                                                new Risk.MatchingRule("PromQL", "d")),
                                        MatchCache.standard(),
                                        each,
                                        T0)
                                .message())
                .startsWith(
                        "Could not evaluate exposure to update risk S ([c failed, evaluation is"
                                + " throttled until 00:00:01Z])\n");
    }

    @Test
    void recommendedCombinesRisks() {
        Target t = new Target("1.1.0", "img", "", List.of(), "");
        ConditionalTarget two = new ConditionalTarget(t, List.of(risk("First"), risk("Second")));
        RiskCondition match = new RiskCondition("Applies", "True", "Match", ""),
                no = new RiskCondition("Applies", "False", "NotMatch", "");
        RiskCondition unknown =
                new RiskCondition("Applies", "Unknown", "EvaluationFailed", "could not");
        assertThat(RiskEvaluation.recommended(two, Map.of("First", no, "Second", no), Set.of()))
                .extracting(RiskCondition::status, RiskCondition::reason)
                .containsExactly("True", "NotExposedToRisks");
        RiskCondition one =
                RiskEvaluation.recommended(two, Map.of("First", match, "Second", no), Set.of());
        assertThat(one)
                .extracting(RiskCondition::status, RiskCondition::reason)
                .containsExactly("False", "First");
        assertThat(one.message()).isEqualTo("First hurts. https://example.com/First");
        assertThat(
                        RiskEvaluation.recommended(
                                        two, Map.of("First", match, "Second", match), Set.of())
                                .reason())
                .isEqualTo("MultipleReasons");
        assertThat(
                        RiskEvaluation.recommended(
                                two, Map.of("First", match, "Second", no), Set.of("First")))
                .extracting(RiskCondition::status, RiskCondition::reason)
                .containsExactly("True", "AllExposedRisksAccepted");
        assertThat(
                        RiskEvaluation.recommended(
                                two, Map.of("First", unknown, "Second", no), Set.of()))
                .extracting(RiskCondition::status, RiskCondition::reason, RiskCondition::message)
                .containsExactly("Unknown", "EvaluationFailed", "could not");
    }

    @Test
    void promqlAnswersMustBeOneSampleOfZeroOrOne() throws Exception {
        String one =
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[1,\"1\"]}]}}";
        assertThat(PromQLResult.parse(200, one.getBytes(StandardCharsets.UTF_8))).isTrue();
        String two =
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"value\":[1,\"1\"]},{\"value\":[1,\"0\"]}]}}";
        assertThatThrownBy(() -> PromQLResult.parse(200, two.getBytes(StandardCharsets.UTF_8)))
                .hasMessage("invalid PromQL result length must be one, but is 2");
        String half =
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"value\":[1,\"0.5\"]}]}}";
        assertThatThrownBy(() -> PromQLResult.parse(200, half.getBytes(StandardCharsets.UTF_8)))
                .hasMessage("invalid PromQL result (must be 0 or 1): 0.5");
        // what the Prometheus Go client says of answers that are not a success
        assertThatThrownBy(() -> PromQLResult.parse(401, "Unauthorized".getBytes(UTF_8)))
                .hasMessage("executing PromQL query: client_error: client error: 401");
        assertThatThrownBy(() -> PromQLResult.parse(503, new byte[0]))
                .hasMessage("executing PromQL query: server_error: server error: 503");
        String bad = "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}";
        assertThatThrownBy(() -> PromQLResult.parse(400, bad.getBytes(UTF_8)))
                .hasMessage("executing PromQL query: bad_data: parse error");
        assertThatThrownBy(() -> PromQLResult.parse(400, one.getBytes(UTF_8)))
                .hasMessage(
                        "executing PromQL query: bad_response: inconsistent body for response"
                                + " code");
        assertThat(RiskEvaluation.injectClusterId("x{_id=\"\"} or 0 * y{_id=\"\"}", "abc"))
                .isEqualTo("x{_id=\"abc\"} or 0 * y{_id=\"abc\"}");
    }
}
