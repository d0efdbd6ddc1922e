package io.upshift.pools.controller;

import io.upshift.graph.client.PromQLClient;
import io.upshift.graph.risk.PromQLResult;
import io.upshift.graph.risk.RuleMatcher.RuleException;
import io.upshift.pools.model.GateReading;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pools' health gates asked of Prometheus: each query a pass needs answered ({@link
 * io.upshift.pools.model.PoolPlan#queries()}) is asked when it has no answer yet or its answer is
 * older than the interval, through the same {@link PromQLClient} (Service lookup, CA bundle, bearer
 * token) as the conditional update risks; answers no pool needs any more are forgotten. A level
 * cluster needs none, so asks nothing.
 */
final class GateQueries {
    private static final Logger LOG = LoggerFactory.getLogger(GateQueries.class);

    private final PromQLClient client;
    private final Duration interval;
    private final Map<String, GateReading> readings = new HashMap<>();

    /**
     * @param client null when the controller has no Prometheus to ask: every gate query then fails,
     *     and holds its pool
     */
    GateQueries(PromQLClient client, Duration interval) {
        this.client = client;
        this.interval = interval;
    }

    Duration interval() {
        return interval;
    }

    /** The answers as they stand. */
    Map<String, GateReading> readings() {
        return Map.copyOf(readings);
    }

    /**
     * Asks the queries in {@code wanted} that have no answer younger than the interval and forgets
     * the others; true when an answer changed.
     */
    boolean refresh(Set<String> wanted, Instant now) {
        boolean changed = readings.keySet().retainAll(wanted);
        for (String query : wanted) {
            GateReading before = readings.get(query);
            if (before != null && now.isBefore(before.at().plus(interval))) continue;
            GateReading after = ask(query, now);
            readings.put(query, after);
            if (!same(before, after)) {
                changed = true;
                LOG.info("health gate query {}: {}", query, describe(after));
            }
        }
        return changed;
    }

    private GateReading ask(String query, Instant now) {
        if (client == null)
            return new GateReading.Failed(
                    "the pool controller has no Prometheus to ask (--metrics-url)", now);
        try {
            PromQLClient.Answer answer = client.query(query);
            return new GateReading.Samples(
                    PromQLResult.samples(answer.status(), answer.body()), now);
        } catch (RuleException e) {
            return new GateReading.Failed(e.getMessage(), now);
        }
    }

    /** The same answer, asked at another time. */
    private static boolean same(GateReading a, GateReading b) {
        if (a instanceof GateReading.Samples x && b instanceof GateReading.Samples y)
            return x.samples().equals(y.samples());
        if (a instanceof GateReading.Failed x && b instanceof GateReading.Failed y)
            return Objects.equals(x.message(), y.message());
        return false;
    }

    private static String describe(GateReading r) {
        if (r instanceof GateReading.Failed f) return "failed: " + f.message();
        return ((GateReading.Samples) r).samples().size() + " samples";
    }
}
