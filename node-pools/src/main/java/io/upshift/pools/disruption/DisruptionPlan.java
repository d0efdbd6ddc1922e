package io.upshift.pools.disruption;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a node must go through to take a config change, decided as the machine-config daemon decides
 * it ({@code calculatePostConfigChangeNodeDisruptionAction} and {@code
 * calculatePostConfigChangeNodeDisruptionActionFromMCDiffs} in pkg/daemon/update.go):
 *
 * <ol>
 *   <li>an OS image, kernel argument, FIPS, kernel type or extensions change needs a Reboot;
 *   <li>no change to files, units or SSH keys needs nothing: None;
 *   <li>otherwise each changed file (closest policy path), unit and the SSH keys bring their
 *       policy's actions, in that order; a file or unit without a policy needs a Reboot;
 *   <li>a Reboot anywhere is the whole plan; None next to other actions is dropped; only None is
 *       one None.
 * </ol>
 *
 * The actions are carried out in that order. A Reboot or a Drain drains the node first; so does
 * Special (registries.conf), which upstream skips when the change only touches mirrors: Upshift
 * does not read registries.conf and always drains then.
 */
public record DisruptionPlan(List<DisruptionAction> actions) {

    /**
     * Everything at once: drain, apply, reboot (a node's first config, and what any unknown change
     * takes).
     */
    public static final DisruptionPlan REBOOT =
            new DisruptionPlan(List.of(DisruptionAction.REBOOT));

    public DisruptionPlan {
        actions = List.copyOf(actions);
    }

    public static DisruptionPlan of(ConfigDiff diff, DisruptionPolicies policies) {
        if (diff.osChange()) return REBOOT;
        if (diff.files().isEmpty() && diff.units().isEmpty() && !diff.passwd())
            return new DisruptionPlan(List.of(DisruptionAction.NONE));
        List<DisruptionAction> actions = new ArrayList<>();
        for (String path : diff.files()) {
            Optional<List<DisruptionAction>> policy = policies.forFile(path);
            if (policy.isEmpty()) return REBOOT;
            actions.addAll(policy.get());
        }
        for (String unit : diff.units()) {
            Optional<List<DisruptionAction>> policy = policies.forUnit(unit);
            if (policy.isEmpty()) return REBOOT;
            actions.addAll(policy.get());
        }
        if (diff.passwd()) actions.addAll(policies.sshKey());
        if (has(actions, DisruptionAction.Type.REBOOT)) return REBOOT;
        List<DisruptionAction> rest =
                actions.stream().filter(a -> a.type() != DisruptionAction.Type.NONE).toList();
        // an empty policy (no actions) leaves nothing to do: that is None too
        return new DisruptionPlan(rest.isEmpty() ? List.of(DisruptionAction.NONE) : rest);
    }

    public boolean reboots() {
        return has(actions, DisruptionAction.Type.REBOOT);
    }

    /** True when the node is cordoned and drained before the change. */
    public boolean drains() {
        return has(actions, DisruptionAction.Type.REBOOT)
                || has(actions, DisruptionAction.Type.DRAIN)
                || has(actions, DisruptionAction.Type.SPECIAL);
    }

    private static boolean has(List<DisruptionAction> actions, DisruptionAction.Type type) {
        return actions.stream().anyMatch(a -> a.type() == type);
    }

    /** {@code Reboot}, {@code None}, {@code Drain, Reload crio.service}. */
    @Override
    public String toString() {
        return actions.stream().map(DisruptionAction::toString).collect(Collectors.joining(", "));
    }
}
