package io.upshift.pools.machineconfignode;

/**
 * What one step of an update reports, as upstream's {@code GenerateAndApplyMachineConfigNodes}
 * takes it: a parent condition (the phase: UpdatePrepared, UpdateExecuted ...) and optionally a
 * child (the part of the phase: Cordoned, Drained ...).
 *
 * @param child null when the step reports the phase alone
 */
public record Transition(Report parent, Report child) {
    public static Transition of(Report parent) {
        return new Transition(parent, null);
    }
}
