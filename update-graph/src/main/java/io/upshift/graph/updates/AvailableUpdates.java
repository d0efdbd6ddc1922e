package io.upshift.graph.updates;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The update client's memory between refreshes: the last good answer (kept up to 24 h, and only for
 * the request that produced it), the RetrievedUpdates condition, and when to ask again (every 2-4
 * minutes, at once when the request changes). Immutable; each attempt gives the next state.
 */
public record AvailableUpdates(
        UpdatesRequest request,
        RetrievedUpdates lastGood,
        Instant lastGoodAt,
        String status,
        String reason,
        String message,
        Instant nextRefresh) {

    public static final Duration KEEP = Duration.ofHours(24);

    /**
     * Before the first attempt; {@code seed} is what ClusterVersion status held at start-up (may be
     * null).
     */
    public static AvailableUpdates seed(
            UpdatesRequest request, RetrievedUpdates seed, Instant now) {
        return new AvailableUpdates(
                request, seed, seed == null ? null : now, "Unknown", "", "", now);
    }

    /** True when the request changed or the refresh interval passed. */
    public boolean due(UpdatesRequest current, Instant now) {
        return !current.equals(request) || !now.isBefore(nextRefresh);
    }

    /**
     * The answer to show at {@code now}: the last good one while it is fresh, for the same request.
     */
    public Optional<RetrievedUpdates> current(UpdatesRequest current, Instant now) {
        if (lastGood == null || !current.equals(request) || lastGoodAt.plus(KEEP).isBefore(now))
            return Optional.empty();
        return Optional.of(lastGood);
    }

    public AvailableUpdates succeeded(
            UpdatesRequest req, RetrievedUpdates updates, Instant now, RandomGenerator random) {
        return new AvailableUpdates(req, updates, now, "True", "", "", next(now, random));
    }

    /**
     * A failed attempt keeps the last good answer of the same request; the condition says why it
     * failed.
     */
    public AvailableUpdates failed(
            UpdatesRequest req,
            String failReason,
            String failMessage,
            Instant now,
            RandomGenerator random) {
        boolean keep =
                req.equals(request) && lastGood != null && !lastGoodAt.plus(KEEP).isBefore(now);
        return new AvailableUpdates(
                req,
                keep ? lastGood : null,
                keep ? lastGoodAt : null,
                "False",
                failReason,
                failMessage,
                next(now, random));
    }

    private static Instant next(Instant now, RandomGenerator random) {
        return now.plus(Duration.ofMinutes(2))
                .plusMillis(random.nextLong(Duration.ofMinutes(2).toMillis()));
    }
}
