package io.upshift.pools.model;

import java.time.Duration;

/**
 * The event the node agent records on a node when a PodDisruptionBudget refuses its drain an
 * eviction (the first refusal of a drain, naming the pod and the budget); update status reads these
 * events to name a stalled drain.
 */
public final class DrainEvents {
    public static final String REASON = "DrainBlocked";

    private DrainEvents() {}

    /**
     * The agent's words for an eviction {@code budget} refused ({@code namespace/name} each), in
     * its event and on the MachineConfigNode; a rehearsal says what would stall in the same words.
     */
    public static String refusal(String budget, String pod) {
        return "PodDisruptionBudget " + budget + " does not allow evicting pod " + pod;
    }

    /**
     * The agent's reason for degrading a node whose drain was refused for {@code timeout}, as the
     * machine-config daemon words it.
     */
    public static String timedOut(String node, Duration timeout) {
        return "failed to drain node: "
                + node
                + " after "
                + human(timeout)
                + ". Please see machine-config-controller logs for more information";
    }

    /** Whether a Degraded node's reason is a drain that gave up ({@link #timedOut}). */
    public static boolean isDrainFailure(String reason) {
        return reason != null && reason.startsWith("failed to drain node: ");
    }

    static String human(Duration d) {
        if (d.toHours() > 0 && d.toMinutesPart() == 0 && d.toSecondsPart() == 0)
            return d.toHours() + (d.toHours() == 1 ? " hour" : " hours");
        if (d.toMinutes() > 0 && d.toSecondsPart() == 0)
            return d.toMinutes() + (d.toMinutes() == 1 ? " minute" : " minutes");
        return d.toSeconds() + (d.toSeconds() == 1 ? " second" : " seconds");
    }
}
