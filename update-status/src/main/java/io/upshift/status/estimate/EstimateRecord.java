package io.upshift.status.estimate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The estimates of an update's duration made while it ran, compared afterwards with how long it
 * took: at a given share of the way (of the time the update took, known once it ended), the
 * estimate shown then is the last one made at or before that moment.
 */
public final class EstimateRecord {
    /** The shares of the way reported: 10%, 50% and 90%. */
    private static final double[] POINTS = {0.1, 0.5, 0.9};

    /** One estimate: made at {@code at}, saying the update would end at {@code end}. */
    public record Sample(Instant at, Instant end) {}

    private final Instant start;
    private final List<Sample> samples = new ArrayList<>();

    /**
     * @param start when the update was asked for: durations count from here
     */
    public EstimateRecord(Instant start) {
        this.start = start;
    }

    /**
     * Records the estimate made at {@code at}; an update without an estimate then records nothing.
     */
    public synchronized void add(Instant at, Optional<Instant> end) {
        end.ifPresent(e -> samples.add(new Sample(at, e)));
    }

    public synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /**
     * The duration estimated at {@code share} of the way through an update that ended at {@code
     * end}; empty when none was made by then.
     */
    public synchronized Optional<Duration> saidAt(double share, Instant end) {
        Instant moment = start.plusNanos((long) (Duration.between(start, end).toNanos() * share));
        Sample last = null;
        for (Sample s : samples) {
            if (!s.at().isAfter(moment) && (last == null || s.at().isAfter(last.at()))) {
                last = s;
            }
        }
        return last == null ? Optional.empty() : Optional.of(Duration.between(start, last.end()));
    }

    /** {@code estimate: at 10% said 31.0 s, at 50% 29.8 s, at 90% 30.4 s; took 30.1 s} */
    public String line(Instant end) {
        StringBuilder out = new StringBuilder("estimate:");
        for (int i = 0; i < POINTS.length; i++) {
            Optional<Duration> said = saidAt(POINTS[i], end);
            out.append(i == 0 ? " at " : ", at ")
                    .append(Math.round(POINTS[i] * 100))
                    .append('%')
                    .append(i == 0 ? " said " : " ")
                    .append(said.map(EstimateRecord::seconds).orElse("none yet"));
        }
        return out.append("; took ").append(seconds(Duration.between(start, end))).toString();
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
