package io.upshift.pools.model;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.base.gofmt.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * How long a pool waits, after one of its nodes is done with the pool's target, before the next
 * node starts: the pool's {@code upshift.io/soak-time} annotation, a Go duration ({@code 30s},
 * {@code 10m}, {@code 1h30m}), as the system-upgrade-controller's {@code postCompleteDelay} or
 * Cluster API's {@code minReadySeconds}. The node must stay healthy (ready and schedulable) through
 * it: the soak is counted from when the node was done or last became ready, whichever is later, and
 * a node done with the target that is not ready holds the pool until it is.
 */
public record SoakTime(Duration length, String text) {
    public static final String ANNOTATION = "upshift.io/soak-time";

    /** Longer than this is a mistake (a unit slip) rather than a soak. */
    static final Duration MAX = Duration.ofDays(7);

    /**
     * The pool's soak time, or null when it has none (or a zero one).
     *
     * @throws IllegalArgumentException naming the annotation and what is wrong with its value
     */
    public static SoakTime of(MachineConfigPool pool) {
        Map<String, String> a = pool.getMetadata().getAnnotations();
        String text = a == null ? null : a.get(ANNOTATION);
        if (text == null) return null;
        SoakTime soak = parse(text);
        return soak.length().isZero() ? null : soak;
    }

    /**
     * @throws IllegalArgumentException naming the annotation and what is wrong with its value
     */
    public static SoakTime parse(String text) {
        long nanos;
        try {
            nanos = GoDuration.parse(text.strip());
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw invalid(text, "not a duration (e.g. 30s, 10m, 1h30m)");
        }
        if (nanos < 0) throw invalid(text, "must not be negative");
        Duration length = Duration.ofNanos(nanos);
        if (length.compareTo(MAX) > 0)
            throw invalid(text, "longer than " + GoDuration.format(MAX.toNanos()));
        return new SoakTime(length, text.strip());
    }

    /**
     * What holds the pool's next node now, or null when nothing does: the node done with {@code
     * target} whose soak ends last, while it has not ended, or a node done with it that is not
     * ready.
     */
    public RolloutHold hold(List<PoolNode> nodes, String target, Instant now) {
        PoolNode soaking = null;
        Instant until = null;
        for (PoolNode n : nodes) {
            if (!n.done() || !n.currentConfig().equals(target) || n.healthySince() == null)
                continue;
            if (!n.ready())
                return new RolloutHold(
                        RolloutHold.SOAK,
                        "Node "
                                + n.name()
                                + " is done with MachineConfig "
                                + target
                                + " but not ready: the next node waits until it has been ready"
                                + " for the soak time "
                                + text
                                + " ("
                                + ANNOTATION
                                + ")",
                        null);
            Instant ends = n.healthySince().plus(length);
            if (ends.isAfter(now) && (until == null || ends.isAfter(until))) {
                until = ends;
                soaking = n;
            }
        }
        if (soaking == null) return null;
        return new RolloutHold(
                RolloutHold.SOAK,
                "Soaking node "
                        + soaking.name()
                        + " for "
                        + text
                        + " ("
                        + ANNOTATION
                        + ") after its update: the next node starts at "
                        + until,
                until);
    }

    private static IllegalArgumentException invalid(String text, String why) {
        return new IllegalArgumentException(
                "annotation " + ANNOTATION + " \"" + text + "\": " + why);
    }
}
