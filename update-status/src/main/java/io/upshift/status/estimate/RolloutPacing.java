package io.upshift.status.estimate;

import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.SoakTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What paces a pool's rollout beyond its lanes, as the pool controller paces it: its maintenance
 * window (a node starts only inside it, and only when it would be done before it closes) and its
 * soak time (no node starts until every node done before has been done that long). Each wait it
 * adds is counted, so that the estimate can say what it includes.
 *
 * @param window the pool's window, or null
 * @param soak the pool's soak time, or null
 */
public record RolloutPacing(MaintenanceWindow window, SoakTime soak) {
    public static final RolloutPacing NONE = new RolloutPacing(null, null);

    /** The waits added to a rollout's nodes, in all. */
    public static final class Waits {
        Duration window = Duration.ZERO;
        Duration soak = Duration.ZERO;

        /** "; waits included: 13h0m0s for the maintenance window "..." (...), 20m0s of soak ..." */
        String describe(RolloutPacing pacing) {
            StringBuilder out = new StringBuilder();
            if (pacing.window != null && !window.isZero())
                out.append(Seconds.format(window))
                        .append(" for the maintenance window \"")
                        .append(pacing.window.text())
                        .append("\" (")
                        .append(MaintenanceWindow.ANNOTATION)
                        .append(')');
            if (pacing.soak != null && !soak.isZero())
                out.append(out.length() == 0 ? "" : ", ")
                        .append(Seconds.format(soak))
                        .append(" of soak time ")
                        .append(pacing.soak.text())
                        .append(" (")
                        .append(SoakTime.ANNOTATION)
                        .append(')');
            return out.length() == 0 ? "" : "; waits included: " + out;
        }
    }

    /**
     * When a node whose lane is free at {@code free} starts: not during the soak after any of the
     * {@code ends} before it, and at a time the window is open long enough for {@code perNode}. The
     * waits are added to {@code waits}.
     */
    Instant start(Instant free, Duration perNode, List<Instant> ends, Waits waits) {
        Instant t = free;
        for (int i = 0; i < 64; i++) {
            Instant before = t;
            if (soak != null) {
                for (Instant e : ends) {
                    Instant soaked = e.plus(soak.length());
                    if (!e.isAfter(t) && soaked.isAfter(t)) {
                        waits.soak = waits.soak.plus(Duration.between(t, soaked));
                        t = soaked;
                    }
                }
            }
            if (window != null) {
                Instant opens = window.nextStart(t, perNode);
                waits.window = waits.window.plus(Duration.between(t, opens));
                t = opens;
            }
            if (t.equals(before)) break;
        }
        return t;
    }

    /**
     * The pool's pacing from its annotations; {@link #NONE} where one does not parse (the pool
     * controller then degrades the pool, which the estimate sees).
     */
    public static RolloutPacing of(java.util.Map<String, String> annotations) {
        if (annotations == null) return NONE;
        try {
            String w = annotations.get(MaintenanceWindow.ANNOTATION);
            String s = annotations.get(SoakTime.ANNOTATION);
            SoakTime soak = s == null ? null : SoakTime.parse(s);
            return new RolloutPacing(
                    w == null ? null : MaintenanceWindow.parse(w),
                    soak == null || soak.length().isZero() ? null : soak);
        } catch (IllegalArgumentException e) {
            return NONE;
        }
    }
}
