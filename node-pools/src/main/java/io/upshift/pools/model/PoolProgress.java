package io.upshift.pools.model;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolCondition;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolStatus;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolStatusConfiguration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * A pool's status as the reference's node controller computes it: machine counts, and the
 * conditions Updated, Updating, NodeDegraded, RenderDegraded and Degraded with its messages.
 * Conditions keep their transition time while their status holds.
 *
 * @param target the rendered config the pool is going to ("" when none could be rendered yet)
 * @param renderError why rendering failed, or null
 * @param specError a spec field the controller cannot use (e.g. maxUnavailable), or null; no node
 *     is touched then
 * @param hold why no node may start now although some are due (a closed maintenance window, a
 *     soak), or null
 */
public record PoolProgress(
        String pool,
        String target,
        List<PoolNode> nodes,
        boolean paused,
        String renderError,
        String specError,
        RolloutHold hold) {

    public int machines() {
        return nodes.size();
    }

    public int updated() {
        return (int)
                nodes.stream().filter(n -> n.done() && n.currentConfig().equals(target)).count();
    }

    public int ready() {
        return (int)
                nodes.stream()
                        .filter(n -> n.done() && n.currentConfig().equals(target) && n.ready())
                        .count();
    }

    public int unavailable() {
        return (int) nodes.stream().filter(PoolNode::unavailable).count();
    }

    public List<PoolNode> degraded() {
        return nodes.stream().filter(PoolNode::failing).toList();
    }

    public boolean isUpdated() {
        return !target.isEmpty()
                && updated() == machines()
                && ready() == machines()
                && unavailable() == 0;
    }

    public boolean isDegraded() {
        return renderError != null || specError != null || !degraded().isEmpty();
    }

    /**
     * The Degraded condition's message: every cause (render, spec, each failing node with its
     * reason); "" when not degraded.
     */
    public String degradedMessage() {
        List<String> causes = new ArrayList<>();
        if (renderError != null) causes.add(renderMessage());
        if (specError != null) causes.add(specError);
        if (!degraded().isEmpty()) causes.add(nodeMessage());
        return String.join("; ", causes);
    }

    private String renderMessage() {
        return renderError == null
                ? ""
                : "Failed to render configuration for pool " + pool + ": " + renderError;
    }

    private String nodeMessage() {
        return String.join(
                ", ",
                degraded().stream()
                        .map(n -> "Node " + n.name() + " is reporting: \"" + n.reason() + "\"")
                        .toList());
    }

    /**
     * The status to write, given the one in the cluster (whose transition times are kept where
     * nothing changed).
     */
    public MachineConfigPoolStatus status(
            MachineConfigPoolStatus previous, long generation, Instant now) {
        List<MachineConfigPoolCondition> before =
                previous == null || previous.getConditions() == null
                        ? List.of()
                        : previous.getConditions();
        String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
        String config = "MachineConfig " + target;
        List<MachineConfigPoolCondition> conditions = new ArrayList<>();
        conditions.add(
                condition(
                        before, time, "RenderDegraded", renderError != null, "", renderMessage()));
        List<PoolNode> degraded = degraded();
        String nodeReason =
                degraded.isEmpty()
                        ? ""
                        : degraded.size() + " nodes are reporting degraded status on sync";
        conditions.add(
                condition(
                        before,
                        time,
                        "NodeDegraded",
                        !degraded.isEmpty(),
                        nodeReason,
                        nodeMessage()));
        String degradedReason =
                renderError != null
                        ? "RenderDegraded"
                        : specError != null ? "InvalidSpec" : nodeReason;
        conditions.add(
                condition(
                        before,
                        time,
                        "Degraded",
                        isDegraded(),
                        isDegraded() ? degradedReason : "",
                        degradedMessage()));
        boolean updatedNow = isUpdated();
        conditions.add(
                condition(
                        before,
                        time,
                        "Updated",
                        updatedNow,
                        "",
                        updatedNow ? "All nodes are updated with " + config : ""));
        String updating;
        boolean isUpdating =
                !updatedNow
                        && !target.isEmpty()
                        && !paused
                        && (hold == null || !hold.stopsUpdating() || unavailable() > 0);
        if (updatedNow || target.isEmpty()) updating = "";
        else if (paused) updating = "Pool is paused; will not update to " + config;
        else if (!isUpdating) updating = hold.message();
        else updating = "All nodes are updating to " + config;
        conditions.add(condition(before, time, "Updating", isUpdating, "", updating));
        conditions.add(held(before, time));

        MachineConfigPoolStatus status = new MachineConfigPoolStatus();
        status.setObservedGeneration(generation);
        if (!target.isEmpty()) {
            MachineConfigPoolStatusConfiguration ref = new MachineConfigPoolStatusConfiguration();
            ref.setName(target);
            status.setConfiguration(ref);
        } else if (previous != null) {
            status.setConfiguration(previous.getConfiguration());
        }
        status.setMachineCount(machines());
        status.setUpdatedMachineCount(updated());
        status.setReadyMachineCount(ready());
        status.setUnavailableMachineCount(unavailable());
        status.setDegradedMachineCount(degraded.size());
        status.setConditions(conditions);
        return status;
    }

    /**
     * Upshift's {@code RolloutHeld} condition: True while a rollout control holds the next node,
     * its reason the control; its transition time is kept while the same control holds, so it says
     * since when.
     */
    private MachineConfigPoolCondition held(List<MachineConfigPoolCondition> before, String now) {
        if (hold == null) return condition(before, now, RolloutHold.CONDITION, false, "", "");
        String since =
                before.stream()
                        .filter(
                                c ->
                                        RolloutHold.CONDITION.equals(c.getType())
                                                && "True".equals(c.getStatus())
                                                && hold.reason().equals(c.getReason()))
                        .map(MachineConfigPoolCondition::getLastTransitionTime)
                        .filter(t -> t != null)
                        .findFirst()
                        .orElse(now);
        return new MachineConfigPoolCondition(
                since, hold.message(), hold.reason(), "True", RolloutHold.CONDITION);
    }

    private static MachineConfigPoolCondition condition(
            List<MachineConfigPoolCondition> before,
            String now,
            String type,
            boolean value,
            String reason,
            String message) {
        String status = value ? "True" : "False";
        String since =
                before.stream()
                        .filter(c -> type.equals(c.getType()) && status.equals(c.getStatus()))
                        .map(MachineConfigPoolCondition::getLastTransitionTime)
                        .filter(t -> t != null)
                        .findFirst()
                        .orElse(now);
        return new MachineConfigPoolCondition(since, message, reason, status, type);
    }
}
