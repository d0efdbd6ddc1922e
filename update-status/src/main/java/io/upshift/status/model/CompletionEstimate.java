package io.upshift.status.model;

import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.gofmt.GoDuration;
import java.time.Instant;
import java.util.List;

/**
 * How long the control plane update will still take, from the share of updated operators and the
 * time it took to get there, as {@code oc} estimates it. Durations are nanoseconds.
 */
public final class CompletionEstimate {
    private CompletionEstimate() {}

    /** The control-plane assessment an estimate implies while the update is not complete. */
    public static String assessment(long estimate) {
        if (estimate < -10 * GoDuration.MINUTE) {
            return "Stalled";
        }
        return estimate < 0 ? "ProgressingSlow" : "Progressing";
    }

    /**
     * The last completed update before the current one (not the installation) as a baseline, else
     * an hour.
     */
    static long baseline(List<UpdateHistory> history) {
        if (history.size() >= 3) {
            for (UpdateHistory item : history.subList(1, history.size() - 1)) {
                if ("Completed".equals(item.getState())) {
                    Instant start = Times.parse(item.getStartedTime());
                    Instant end = Times.parse(item.getCompletionTime());
                    return Times.between(
                            start == null ? Times.ZERO : start, end == null ? Times.ZERO : end);
                }
            }
        }
        return GoDuration.HOUR;
    }

    static long estimate(
            long baseline, long toLastObservedProgress, long updatingFor, double completion) {
        if (completion >= 1) {
            return 0;
        }
        double tw = timewise(completion);
        double totalSeconds =
                completion > 0 && tw > 0 && toLastObservedProgress > 5 * GoDuration.MINUTE
                        ? GoDuration.seconds(toLastObservedProgress) / tw
                        : GoDuration.seconds(baseline);
        double remaining = totalSeconds - GoDuration.seconds(updatingFor);
        // Overestimate a little while time remains; once late, shrink the overrun.
        double overestimate = remaining < 0 ? 1 / 1.2 : 1.2;
        long estimate = ((long) (remaining * overestimate)) * GoDuration.SECOND;
        return estimate > 10 * GoDuration.MINUTE
                ? GoDuration.round(estimate, GoDuration.MINUTE)
                : GoDuration.round(estimate, GoDuration.SECOND);
    }

    /**
     * Share of the update's time spent when a share of operators is updated: a typical cluster has
     * 97% of its operators updated at two thirds of the time. Three fitted polynomials; powers
     * computed the way Go's math.Pow computes them for small integer exponents, so results agree to
     * the bit.
     */
    static double timewise(double x) {
        double x2 = x * x;
        double x3 = x * x2;
        double x4 = x2 * x2;
        if (x < 0.25) {
            return -0.03078788 + 2.62886 * x - 3.823954 * x2;
        }
        if (x < 0.9) {
            return 0.1851215 + 1.64994 * x - 4.676898 * x2 + 5.451824 * x3 - 2.125286 * x4;
        }
        return 25053.32 - 107394.3 * x + 172527.2 * x2 - 123107 * x3 + 32921.81 * x4;
    }
}
