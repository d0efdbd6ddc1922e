package io.upshift.graph.risk;

import io.upshift.graph.model.Risk;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Rate-limits rule evaluations as the reference does: at most one evaluation per {@code minBetween}
 * overall, the same rule at most once per {@code minPerRule}, results forgotten after {@code
 * expiry}; each allowed evaluation goes to the most stale rule that was asked for, so rules asked
 * for late are not starved. Not thread-safe; time is passed in.
 */
public final class MatchCache {

    /** One evaluation: the time it finished and its outcome. */
    private static final class Entry {
        Instant evaluated; // null when never evaluated
        Instant asked;
        boolean match;
        String error;
    }

    /** Upstream's time of day, Go's {@code 15:04:05Z07} (UTC: a trailing Z). */
    private static final DateTimeFormatter CLOCK_TIME =
            DateTimeFormatter.ofPattern("HH:mm:ssXXX").withZone(ZoneOffset.UTC);

    private final Duration minBetween, minPerRule, expiry;
    private final Map<Risk.MatchingRule, Entry> entries = new HashMap<>();
    private Instant lastEvaluation = Instant.EPOCH;
    private int evaluations;

    public MatchCache(Duration minBetween, Duration minPerRule, Duration expiry) {
        this.minBetween = minBetween;
        this.minPerRule = minPerRule;
        this.expiry = expiry;
    }

    /** The reference's limits: one per second, each rule once an hour, forgotten after a day. */
    public static MatchCache standard() {
        return new MatchCache(Duration.ofSeconds(1), Duration.ofHours(1), Duration.ofHours(24));
    }

    /** Evaluations actually run (for tests and metrics). */
    public int evaluations() {
        return evaluations;
    }

    /** The rule's cached or fresh outcome. */
    public boolean match(Risk.MatchingRule rule, Instant now, RuleMatcher matcher)
            throws RuleMatcher.RuleException {
        entries.values().removeIf(e -> age(e, now).compareTo(expiry) > 0);
        Entry mine = entries.computeIfAbsent(rule, r -> new Entry());
        try {
            if (Duration.between(lastEvaluation, now).compareTo(minBetween) <= 0
                    && evaluations > 0) {
                return cached(
                        mine,
                        "evaluation is throttled until "
                                + CLOCK_TIME.format(lastEvaluation.plus(minBetween)));
            }
            Risk.MatchingRule target = mostStale(now);
            if (target == null) {
                if (mine.evaluated != null) return cached(mine, null);
                target = rule; // nothing staler is due, and this one has never been evaluated
            }
            Entry e = entries.get(target);
            try {
                e.match = matcher.match(target);
                e.error = null;
            } catch (RuleMatcher.RuleException ex) {
                e.error = ex.getMessage();
            }
            e.evaluated = now;
            lastEvaluation = now;
            evaluations++;
            return cached(mine, "evaluation is throttled");
        } finally {
            mine.asked = now;
        }
    }

    private static boolean cached(Entry e, String throttled) throws RuleMatcher.RuleException {
        if (e.evaluated == null) throw new RuleMatcher.RuleException(throttled);
        if (e.error != null) throw new RuleMatcher.RuleException(e.error);
        return e.match;
    }

    /**
     * The rule asked for since its last evaluation that was evaluated longest ago, if it is due;
     * else null.
     */
    private Risk.MatchingRule mostStale(Instant now) {
        Risk.MatchingRule thief = null;
        Entry best = null;
        for (Map.Entry<Risk.MatchingRule, Entry> m : entries.entrySet()) {
            Entry e = m.getValue();
            boolean askedSince =
                    e.evaluated == null || (e.asked != null && e.asked.isAfter(e.evaluated));
            if (!askedSince) continue;
            if (best == null
                    || before(e.evaluated, best.evaluated)
                    || (Objects.equals(e.evaluated, best.evaluated)
                            && e.asked != null
                            && best.asked != null
                            && e.asked.isBefore(best.asked))) {
                thief = m.getKey();
                best = e;
            }
        }
        if (best != null
                && best.evaluated != null
                && Duration.between(best.evaluated, now).compareTo(minPerRule) < 0) return null;
        return thief;
    }

    private static boolean before(Instant a, Instant b) {
        if (a == null) return b != null;
        return b != null && a.isBefore(b);
    }

    private static Duration age(Entry e, Instant now) {
        Instant since = e.evaluated != null ? e.evaluated : e.asked;
        return since == null ? Duration.ZERO : Duration.between(since, now);
    }
}
