package io.upshift.pools.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the node agent has seen so far, as values: each event makes a new reading, and {@link
 * #rows(Instant)} turns one into {@link DaemonFamilies}' rows at a scrape.
 *
 * @param state the node's state annotation; empty before the agent saw its node
 * @param reason its reason annotation
 * @param stateSince when the agent saw that state first
 * @param lastConfig the config of the last update that ended; null before one did
 * @param lastError that update's error; empty when it was applied
 * @param lastEnded when it ended
 * @param drainFailed the last drain gave up
 * @param rebootsFailed reboots that failed
 * @param pivotErrors OS images that failed to stage
 * @param refusedBy the budget refusing the drain under way; null when none is refused
 * @param refusedSince since when
 */
public record DaemonReadings(
        String state,
        String reason,
        Instant stateSince,
        String lastConfig,
        String lastError,
        Instant lastEnded,
        boolean drainFailed,
        long rebootsFailed,
        long pivotErrors,
        String refusedBy,
        Instant refusedSince) {

    public static final DaemonReadings NONE =
            new DaemonReadings("", "", null, null, "", null, false, 0, 0, null, null);

    /** The node as seen now: a new state starts its time. */
    public DaemonReadings seen(String state, String reason, Instant now) {
        String s = state == null ? "" : state, r = reason == null ? "" : reason;
        if (s.equals(this.state) && r.equals(this.reason)) return this;
        return new DaemonReadings(
                s,
                r,
                now,
                lastConfig,
                lastError,
                lastEnded,
                drainFailed,
                rebootsFailed,
                pivotErrors,
                refusedBy,
                refusedSince);
    }

    /** An update to {@code config} ended, applied ({@code error} empty) or not. */
    public DaemonReadings updateEnded(String config, String error, Instant now) {
        return new DaemonReadings(
                state,
                reason,
                stateSince,
                config,
                error == null ? "" : error,
                now,
                drainFailed,
                rebootsFailed,
                pivotErrors,
                refusedBy,
                refusedSince);
    }

    /** The first refused eviction of the drain under way, by {@code budget}. */
    public DaemonReadings drainRefused(String budget, Instant now) {
        return new DaemonReadings(
                state,
                reason,
                stateSince,
                lastConfig,
                lastError,
                lastEnded,
                drainFailed,
                rebootsFailed,
                pivotErrors,
                budget,
                now);
    }

    /** The drain under way ended: drained, or given up. */
    public DaemonReadings drainEnded(boolean drained) {
        return new DaemonReadings(
                state,
                reason,
                stateSince,
                lastConfig,
                lastError,
                lastEnded,
                !drained,
                rebootsFailed,
                pivotErrors,
                null,
                null);
    }

    public DaemonReadings rebootFailed() {
        return new DaemonReadings(
                state,
                reason,
                stateSince,
                lastConfig,
                lastError,
                lastEnded,
                drainFailed,
                rebootsFailed + 1,
                pivotErrors,
                refusedBy,
                refusedSince);
    }

    public DaemonReadings pivotFailed() {
        return new DaemonReadings(
                state,
                reason,
                stateSince,
                lastConfig,
                lastError,
                lastEnded,
                drainFailed,
                rebootsFailed,
                pivotErrors + 1,
                refusedBy,
                refusedSince);
    }

    /** The rows a scrape at {@code now} shows. */
    public List<Row> rows(Instant now) {
        List<Row> rows = new ArrayList<>();
        if (stateSince != null)
            rows.add(DaemonFamilies.STATE.row(seconds(stateSince), state, reason));
        if (lastEnded != null)
            rows.add(DaemonFamilies.UPDATE_STATE.row(seconds(lastEnded), lastConfig, lastError));
        rows.add(DaemonFamilies.DRAIN_ERR.row(drainFailed ? 1 : 0));
        rows.add(DaemonFamilies.REBOOTS_FAILED.row((double) rebootsFailed));
        rows.add(DaemonFamilies.PIVOT_ERRORS.row((double) pivotErrors));
        if (refusedBy != null) {
            Duration d = Duration.between(refusedSince, now);
            rows.add(
                    DaemonFamilies.DRAIN_REFUSED.row(
                            d.isNegative() ? 0 : d.toMillis() / 1000.0, refusedBy));
        }
        return rows;
    }

    public String render(Instant now) {
        return Exposition.render(DaemonFamilies.ALL, rows(now));
    }

    static double seconds(Instant t) {
        return t.toEpochMilli() / 1000.0;
    }
}
