package io.upshift.pools.model;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolStatus;
import java.time.Instant;

/**
 * Why no new node of a pool starts now although some are due: a rollout control of the pool
 * (Upshift's, beyond upstream) holds it. Shown as the pool's {@code RolloutHeld} condition (its
 * transition time says since when), in a {@code RolloutHeld} event on the pool, and by {@code
 * upshift status}. Nodes already updating finish.
 *
 * @param reason the control that holds the pool, as the condition's reason: {@link #WINDOW}, {@link
 *     #SOAK}, ...
 * @param message what holds it, naming the annotation, node or gate
 * @param until when the hold ends by itself (the controller decides again then), or null when only
 *     a change in the cluster ends it
 */
public record RolloutHold(String reason, String message, Instant until) {
    public static final String CONDITION = "RolloutHeld";
    public static final String WINDOW = "MaintenanceWindow";
    public static final String SOAK = "SoakTime";
    public static final String HEALTH_GATE = "HealthGate";
    public static final String CANARIES = "Canaries";

    /** The pool paused itself: a gate fired while its canaries were watched ({@link Canaries}). */
    public static final String CANARY_HALTED = "CanaryHalted";

    /** A hook's Job runs, or is about to ({@link HookProgress}). */
    public static final String HOOK = "Hook";

    /** A hook's Job failed or ran out of time: it holds until an administrator acts. */
    public static final String HOOK_FAILED = "HookFailed";

    /**
     * A closed maintenance window also makes the pool's {@code Updating} condition False (with this
     * message) once no node is under way, as before there were other holds; the others hold a
     * rollout that is still under way.
     */
    public boolean stopsUpdating() {
        return WINDOW.equals(reason);
    }

    /** The reason of a pool status's {@value #CONDITION} condition when it is True, else "". */
    public static String reasonIn(MachineConfigPoolStatus status) {
        if (status == null || status.getConditions() == null) return "";
        return status.getConditions().stream()
                .filter(c -> CONDITION.equals(c.getType()) && "True".equals(c.getStatus()))
                .map(c -> c.getReason() == null ? "" : c.getReason())
                .findFirst()
                .orElse("");
    }
}
