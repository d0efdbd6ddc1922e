package io.upshift.graph.client;

import io.upshift.graph.model.Risk;
import io.upshift.graph.risk.PromQLResult;
import io.upshift.graph.risk.RiskEvaluation;
import io.upshift.graph.risk.RuleMatcher;
import java.time.Duration;

/**
 * Evaluates PromQL matching rules against a Prometheus HTTP API ({@code <url>/api/v1/query}) as
 * upstream's promql cluster condition does, through a {@link PromQLClient} (Service lookup, CA
 * bundle, bearer token); {@code _id=""} replaced by the cluster's id. Every failure is an
 * evaluation error in upstream's words ("failure determine thanos IP: ...", "executing PromQL
 * query: client_error: client error: 401", ...), which the risk's Applies condition quotes.
 *
 * <p>The whole exchange, its answer's body included, is bounded by {@code timeout}, shorter than
 * upstream's five minutes: risks are evaluated on the controller's sync, whose status writes must
 * not wait on a hung Prometheus; the answer is streamed and refused past {@link #MAX_BYTES}.
 */
public final class PrometheusMatcher implements RuleMatcher {

    /**
     * A risk's query answers one sample; an answer larger than this is refused where it stands, not
     * read whole.
     */
    public static final int MAX_BYTES = 1 << 20;

    private final PromQLClient client;
    private final String clusterId;

    public PrometheusMatcher(
            PromQLTarget target, ServiceLookup services, String clusterId, Duration timeout) {
        this(new PromQLClient(target, services, timeout, MAX_BYTES), clusterId);
    }

    public PrometheusMatcher(PromQLClient client, String clusterId) {
        this.client = client;
        this.clusterId = clusterId;
    }

    @Override
    public boolean match(Risk.MatchingRule rule) throws RuleException {
        if (!"PromQL".equals(rule.type()))
            throw new RuleException("not a PromQL rule: " + rule.type());
        PromQLClient.Answer answer =
                client.query(RiskEvaluation.injectClusterId(rule.promql(), clusterId));
        return PromQLResult.parse(answer.status(), answer.body());
    }
}
