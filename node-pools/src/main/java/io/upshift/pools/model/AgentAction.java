package io.upshift.pools.model;

import io.upshift.pools.machineconfignode.Transition;
import io.upshift.pools.machineconfignode.UpdateSteps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the node agent does next, decided from its node's annotations, the marker on its host and
 * the boot it is in, and the config it last failed on: the agent is crash-only, so this is all it
 * needs, whatever killed the agent before it.
 *
 * <ul>
 *   <li>{@link Idle}: no config told yet;
 *   <li>{@link Finish}: rebooted into the desired config (an agent before this one did the rest),
 *       or told again the config it runs (a failed config taken back): Done and uncordoned;
 *   <li>{@link Updated}: runs its config and is done with it: report Updated, then wait;
 *   <li>{@link WaitDegraded}: failed on the desired config less than the retry time ago: wait (a
 *       new config is tried at once: it may be the fix);
 *   <li>{@link Update}: take the node from its config to the desired one.
 * </ul>
 */
public sealed interface AgentAction {

    record Idle() implements AgentAction {}

    /**
     * @param report how the update ends, reported before Done: the reboot, when the host rebooted
     */
    record Finish(String config, List<Transition> report) implements AgentAction {}

    /**
     * @param report the node's idle report
     */
    record Updated(String config, List<Transition> report) implements AgentAction {}

    record WaitDegraded(Instant until) implements AgentAction {}

    record Update(String current, String desired) implements AgentAction {}

    /**
     * The config the node failed on and when; the agent remembers it, and forgets it on a restart
     * (then the node waits as if it had just failed).
     */
    record Failure(String config, Instant at) {}

    /**
     * @param failure what the agent remembers from now on (null: nothing)
     */
    record Decision(AgentAction action, Failure failure) {}

    /**
     * @param node the node's name, for its reports
     * @param annotations the node's annotations
     * @param marker the marker on the host, or null
     * @param boot the boot the host is in (read only when there is a marker)
     * @param failure the failure the agent remembers, or null
     * @param degradedRetry how long a node that failed on a config waits before trying it again
     */
    static Decision next(
            String node,
            Map<String, String> annotations,
            HostMarker marker,
            HostBoot boot,
            Failure failure,
            Instant now,
            Duration degradedRetry) {
        String desired = annotations.getOrDefault(NodeAnnotations.DESIRED_CONFIG, "");
        String current = annotations.getOrDefault(NodeAnnotations.CURRENT_CONFIG, "");
        String state = annotations.getOrDefault(NodeAnnotations.STATE, "");
        if (desired.isEmpty()) return new Decision(new Idle(), failure);
        boolean rebooted = marker != null && marker.rebootedInto(desired, boot);
        if (rebooted || (current.equals(desired) && !NodeAnnotations.DONE.equals(state))) {
            // the report tells how this update ends, not the steps of one left behind
            List<Transition> report =
                    rebooted
                            ? List.of(UpdateSteps.rebooted(), UpdateSteps.succeeded(node))
                            : List.of();
            return new Decision(new Finish(desired, report), failure);
        }
        if (current.equals(desired))
            return new Decision(new Updated(desired, List.of(UpdateSteps.updated(node))), failure);
        boolean failed =
                NodeAnnotations.DEGRADED.equals(state)
                        || NodeAnnotations.UNRECONCILABLE.equals(state);
        if (failed) {
            // an agent restarted on a failed node waits as if it had just failed
            Failure known = failure != null ? failure : new Failure(desired, now);
            Instant until = known.at().plus(degradedRetry);
            if (desired.equals(known.config()) && now.isBefore(until))
                return new Decision(new WaitDegraded(until), known);
        }
        return new Decision(new Update(current, desired), null);
    }
}
