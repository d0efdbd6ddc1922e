package io.upshift.pools.machineconfignode;

import static io.upshift.pools.machineconfignode.ConditionType.AppliedFilesAndOS;
import static io.upshift.pools.machineconfignode.ConditionType.Cordoned;
import static io.upshift.pools.machineconfignode.ConditionType.Drained;
import static io.upshift.pools.machineconfignode.ConditionType.NodeDegraded;
import static io.upshift.pools.machineconfignode.ConditionType.RebootedNode;
import static io.upshift.pools.machineconfignode.ConditionType.Resumed;
import static io.upshift.pools.machineconfignode.ConditionType.Uncordoned;
import static io.upshift.pools.machineconfignode.ConditionType.UpdateComplete;
import static io.upshift.pools.machineconfignode.ConditionType.UpdateExecuted;
import static io.upshift.pools.machineconfignode.ConditionType.UpdatePostActionComplete;
import static io.upshift.pools.machineconfignode.ConditionType.UpdatePrepared;
import static io.upshift.pools.machineconfignode.ConditionType.Updated;
import static io.upshift.pools.machineconfignode.Report.FALSE;
import static io.upshift.pools.machineconfignode.Report.TRUE;
import static io.upshift.pools.machineconfignode.Report.UNKNOWN;

import io.upshift.pools.disruption.DisruptionAction;
import io.upshift.pools.disruption.DisruptionPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * What each step of a node's update reports in its MachineConfigNode, with the reasons and messages
 * of upstream's machine-config daemon and drain controller (machine-config-operator release-4.19:
 * pkg/daemon/daemon.go, pkg/daemon/update.go, pkg/daemon/drain.go,
 * pkg/controller/drain/drain_controller.go). A child's reason is its parent's type followed by its
 * own, as upstream forms it.
 */
public final class UpdateSteps {
    private UpdateSteps() {}

    /** The daemon sees a config it does not run. */
    public static Transition needsUpdate(String node) {
        return Transition.of(
                new Report(Updated, FALSE, Updated.name(), "Node " + node + " needs an update"));
    }

    /**
     * The new config was validated against the running one. Upstream names its legacy post-config
     * actions here (an empty list under the NodeDisruptionPolicy gate, on by default since 4.17);
     * Upshift names the plan's actions.
     */
    public static Transition prepared(DisruptionPlan plan) {
        return Transition.of(
                new Report(
                        UpdatePrepared,
                        TRUE,
                        UpdatePrepared.name(),
                        "Update Compatible. Post Cfg Actions: "
                                + goList(plan)
                                + " Drain Required: "
                                + plan.drains()));
    }

    /**
     * The new config cannot be taken in place; {@code error} is why, without upstream's "can't
     * reconcile" prefix.
     */
    public static Transition incompatible(String from, String to, String error) {
        return Transition.of(
                new Report(
                        UpdatePrepared,
                        UNKNOWN,
                        UpdatePrepared.name(),
                        "Update Failed compatibility validation. MachineConfigs "
                                + from
                                + " and "
                                + to
                                + " are not compatible. Err: "
                                + error));
    }

    public static Transition cordoned() {
        return executed(
                Cordoned,
                UNKNOWN,
                "Cordoned Node as part of update executed phase",
                TRUE,
                "Cordoned node. The node is reporting Unschedulable = true");
    }

    public static Transition draining(String desiredDrain, String lastAppliedDrain) {
        return executed(
                Drained,
                UNKNOWN,
                "Draining Node as part of update executed phase",
                UNKNOWN,
                "Draining node. The drain will not be complete until desired drainer "
                        + desiredDrain
                        + " matches current drainer "
                        + lastAppliedDrain);
    }

    /** An eviction was refused, or the drain gave up: {@code error} says which. */
    public static Transition drainFailed(
            String error, String desiredDrain, String lastAppliedDrain) {
        return executed(
                Drained,
                UNKNOWN,
                "Node Drain has not succeeded",
                UNKNOWN,
                DRAIN_ERROR
                        + error
                        + " The drain will not be complete until desired drainer "
                        + desiredDrain
                        + " matches current drainer "
                        + lastAppliedDrain);
    }

    /** How a failing drain's message begins; the error follows. */
    public static final String DRAIN_ERROR = "Error: Node Drain has not succeeded. Error is: ";

    public static Transition drained(String desiredDrain) {
        return drained(desiredDrain, "");
    }

    /**
     * Drained; {@code forced} (Upshift's, "" for none) names the pods deleted past their budget
     * because the pool said so.
     */
    public static Transition drained(String desiredDrain, String forced) {
        return executed(
                Drained,
                UNKNOWN,
                "Drained Node as part of update executed phase",
                TRUE,
                "Drained node. The drain is complete as the desired drainer matches current"
                        + " drainer: "
                        + desiredDrain
                        + (forced.isEmpty() ? "" : ". Pods " + forced));
    }

    public static Transition drainNotRequired() {
        return executed(
                Drained,
                UNKNOWN,
                "Node Drain Not required for this update.",
                FALSE,
                "Node Drain Not required for this update.");
    }

    /**
     * The files, units and OS are being written. The messages are upstream's to the letter, the
     * double space where a "not" is left out included.
     */
    public static Transition applying(boolean os, boolean sshKeys) {
        return executed(
                AppliedFilesAndOS,
                UNKNOWN,
                "Updating the Files and OS on disk as a part of the in progress phase",
                UNKNOWN,
                "Applying files and new OS config to node. OS will "
                        + not(os)
                        + " need an update. SSH Keys will "
                        + not(sshKeys)
                        + " need an update");
    }

    public static Transition applied(boolean os, boolean sshKeys) {
        return executed(
                AppliedFilesAndOS,
                TRUE,
                "Updated the Files and OS on disk as a part of the in progress phase",
                TRUE,
                "Applied files and new OS config to node. OS did "
                        + not(os)
                        + " need an update. SSH Keys did "
                        + not(sshKeys)
                        + " need an update");
    }

    public static Transition rebooting() {
        return Transition.of(
                new Report(
                        RebootedNode, UNKNOWN, RebootedNode.name(), "Upgrade requires a reboot."));
    }

    public static Transition rebooted() {
        return Transition.of(
                new Report(RebootedNode, TRUE, RebootedNode.name(), "Node has rebooted"));
    }

    /**
     * What the plan's actions report once carried out, in order, as upstream's {@code
     * performPostConfigChangeNodeDisruptionAction}: None "Changes do not require a reboot", a
     * reload (Special reloads CRI-O, DaemonReload is {@code daemon-reload}) "Node has reloaded
     * service X"; a Drain reports nothing here. Upstream reports no restart; Upshift does, in the
     * same words ("Node has restarted service X").
     */
    public static List<Transition> postActions(DisruptionPlan plan) {
        List<Transition> out = new ArrayList<>();
        for (DisruptionAction a : plan.actions()) {
            switch (a.type()) {
                case NONE ->
                        out.add(
                                Transition.of(
                                        new Report(
                                                UpdatePostActionComplete,
                                                TRUE,
                                                "None",
                                                "Changes do not require a reboot")));
                case RELOAD -> out.add(postAction("Node has reloaded service " + a.unit()));
                case SPECIAL -> out.add(postAction("Node has reloaded service crio.service"));
                case DAEMON_RELOAD ->
                        out.add(postAction("Node has reloaded service daemon-reload"));
                case RESTART -> out.add(postAction("Node has restarted service " + a.unit()));
                case DRAIN, REBOOT -> {
                    // the drain came before the files; a reboot reports RebootedNode
                }
            }
        }
        return out;
    }

    public static Transition resumed(String config) {
        return Transition.of(
                new Report(
                        Resumed,
                        TRUE,
                        Resumed.name(),
                        "In desired config "
                                + config
                                + ". Resumed normal operations. Applying proper annotations."));
    }

    public static Transition uncordoned() {
        return new Transition(
                new Report(
                        UpdateComplete,
                        TRUE,
                        Uncordoned.name(),
                        "Uncordoned Node as part of completing upgrade phase"),
                new Report(
                        Uncordoned,
                        TRUE,
                        UpdateComplete.name() + Uncordoned.name(),
                        "UnCordoned node. The node is reporting Unschedulable = false"));
    }

    /**
     * The node runs the config it is told; every other condition not already False turns False
     * ({@link NodeConditions}).
     */
    public static Transition updated(String node) {
        return Transition.of(
                new Report(Updated, TRUE, Updated.name(), "Node " + node + " Updated"));
    }

    public static Transition degraded(String node, String error) {
        return Transition.of(
                new Report(
                        NodeDegraded,
                        TRUE,
                        NodeDegraded.name(),
                        "Node " + node + " upgrade failure. " + error));
    }

    public static Transition succeeded(String node) {
        return Transition.of(
                new Report(
                        NodeDegraded,
                        FALSE,
                        NodeDegraded.name(),
                        "Node " + node + " upgrade succeeded"));
    }

    private static Transition executed(
            ConditionType child,
            String status,
            String message,
            String childStatus,
            String childMessage) {
        return new Transition(
                new Report(UpdateExecuted, status, child.name(), message),
                new Report(child, childStatus, UpdateExecuted.name() + child.name(), childMessage));
    }

    private static Transition postAction(String message) {
        return Transition.of(
                new Report(
                        UpdatePostActionComplete, TRUE, UpdatePostActionComplete.name(), message));
    }

    private static String not(boolean needed) {
        return needed ? "" : "not";
    }

    /** In brackets, as upstream prints its list: {@code [Drain, Reload crio.service]}. */
    private static String goList(DisruptionPlan plan) {
        return "["
                + String.join(
                        ", ", plan.actions().stream().map(DisruptionAction::toString).toList())
                + "]";
    }
}
