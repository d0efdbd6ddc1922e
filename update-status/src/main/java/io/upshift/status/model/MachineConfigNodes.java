package io.upshift.status.model;

import static io.upshift.pools.model.NodeAnnotations.CURRENT_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.DESIRED_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.DESIRED_DRAIN;
import static io.upshift.pools.model.NodeAnnotations.LAST_APPLIED_DRAIN;
import static io.upshift.pools.model.NodeAnnotations.REASON;
import static io.upshift.pools.model.NodeAnnotations.STATE;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.upshift.base.conditions.Conditions;
import io.upshift.pools.machineconfignode.NodeStatus;
import io.upshift.pools.machineconfignode.UpdateSteps;
import io.upshift.pools.model.NodeAnnotations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the status assessment takes from MachineConfigNodes. {@code oc adm upgrade status} (4.19,
 * and every later branch of openshift/oc so far) reads none: it reads the nodes' machine-config
 * annotations, and so does Upshift wherever a node has them, so the text stays oc's.
 * MachineConfigNodes serve where the annotations say nothing:
 *
 * <ul>
 *   <li>a node without any of the daemon's annotations ({@code currentConfig}, {@code
 *       desiredConfig}, {@code state}) is read through its MachineConfigNode's configs and
 *       conditions ({@link #withAnnotations});
 *   <li>a drain held up, on a cluster whose agents record no DrainBlocked events (OpenShift's drain
 *       controller reports a failing drain in the node's {@code Drained} condition), raises
 *       Upshift's own drain insight ({@link #drainFailure}).
 * </ul>
 */
public final class MachineConfigNodes {
    private MachineConfigNodes() {}

    /**
     * A drain that fails: the error the MachineConfigNode reports and since when the node has been
     * draining.
     */
    public record DrainFailure(String error, Instant since) {}

    /**
     * The nodes, those without machine-config annotations given the ones their MachineConfigNode
     * implies.
     */
    public static List<Node> withAnnotations(List<Node> nodes, List<MachineConfigNode> mcns) {
        if (mcns.isEmpty()) return nodes;
        Map<String, MachineConfigNode> byName = byName(mcns);
        List<Node> out = new ArrayList<>(nodes.size());
        for (Node node : nodes) {
            Map<String, String> a =
                    node.getMetadata().getAnnotations() == null
                            ? Map.of()
                            : node.getMetadata().getAnnotations();
            MachineConfigNode mcn = byName.get(node.getMetadata().getName());
            boolean annotated =
                    a.containsKey(CURRENT_CONFIG)
                            || a.containsKey(DESIRED_CONFIG)
                            || a.containsKey(STATE);
            out.add(
                    annotated || mcn == null
                            ? node
                            : new NodeBuilder(node)
                                    .editMetadata()
                                    .addToAnnotations(annotations(mcn))
                                    .endMetadata()
                                    .build());
        }
        return out;
    }

    public static Map<String, MachineConfigNode> byName(List<MachineConfigNode> mcns) {
        Map<String, MachineConfigNode> byName = new HashMap<>();
        mcns.forEach(m -> byName.put(m.getMetadata().getName(), m));
        return byName;
    }

    /**
     * The daemon's annotations as the MachineConfigNode tells them: its configs; the state Degraded
     * or Unreconcilable (NodeDegraded, with a failed validation for the latter), Done (running the
     * desired config), Rebooting, else Working; a drain asked for while {@code Drained} is Unknown,
     * carried out once it is True.
     */
    static Map<String, String> annotations(MachineConfigNode mcn) {
        List<Condition> c =
                mcn.getStatus() == null || mcn.getStatus().getConditions() == null
                        ? List.of()
                        : mcn.getStatus().getConditions();
        String current =
                mcn.getStatus() == null || mcn.getStatus().getConfigVersion() == null
                        ? ""
                        : text(mcn.getStatus().getConfigVersion().getCurrent());
        String desired =
                mcn.getSpec() == null || mcn.getSpec().getConfigVersion() == null
                        ? ""
                        : text(mcn.getSpec().getConfigVersion().getDesired());
        if (desired.equals(NodeStatus.NOT_YET_SET)) desired = "";
        Map<String, String> a = new LinkedHashMap<>();
        if (!current.isEmpty()) a.put(CURRENT_CONFIG, current);
        if (!desired.isEmpty()) a.put(DESIRED_CONFIG, desired);
        String state;
        if (Conditions.META.isTrue(c, "NodeDegraded")) {
            state =
                    Conditions.META.hasStatus(c, "UpdatePrepared", "Unknown")
                            ? NodeAnnotations.UNRECONCILABLE
                            : NodeAnnotations.DEGRADED;
            String message = text(Conditions.META.find(c, "NodeDegraded").getMessage());
            String prefix = "Node " + mcn.getMetadata().getName() + " upgrade failure. ";
            a.put(
                    REASON,
                    message.startsWith(prefix) ? message.substring(prefix.length()) : message);
        } else if (desired.isEmpty() || current.equals(desired)) {
            state = NodeAnnotations.DONE;
        } else if (Conditions.META.hasStatus(c, "RebootedNode", "Unknown")) {
            state = NodeAnnotations.REBOOTING;
        } else {
            state = NodeAnnotations.WORKING;
        }
        a.put(STATE, state);
        if (!desired.isEmpty()
                && !current.equals(desired)
                && Conditions.META.hasStatus(c, "Drained", "Unknown")) {
            a.put(DESIRED_DRAIN, "drain-" + desired);
            a.put(LAST_APPLIED_DRAIN, current.isEmpty() ? "" : "uncordon-" + current);
        } else if (!desired.isEmpty()
                && !current.equals(desired)
                && Conditions.META.isTrue(c, "Drained")) {
            a.put(DESIRED_DRAIN, "drain-" + desired);
            a.put(LAST_APPLIED_DRAIN, "drain-" + desired);
        }
        return a;
    }

    /**
     * The drain failure the MachineConfigNode reports ({@code Drained=Unknown}, "Error: Node Drain
     * has not succeeded. Error is: ..."), if any; the drain began when the node was cordoned.
     */
    public static Optional<DrainFailure> drainFailure(MachineConfigNode mcn) {
        if (mcn == null || mcn.getStatus() == null) return Optional.empty();
        List<Condition> c = mcn.getStatus().getConditions();
        Condition drained = Conditions.META.find(c, "Drained");
        if (drained == null
                || !"Unknown".equals(drained.getStatus())
                || drained.getMessage() == null
                || !drained.getMessage().startsWith(UpdateSteps.DRAIN_ERROR)) {
            return Optional.empty();
        }
        String error = drained.getMessage().substring(UpdateSteps.DRAIN_ERROR.length());
        int end = error.indexOf(" The drain will not be complete until");
        Condition cordoned = Conditions.META.find(c, "Cordoned");
        String since =
                cordoned != null && "True".equals(cordoned.getStatus())
                        ? cordoned.getLastTransitionTime()
                        : drained.getLastTransitionTime();
        Instant at = Times.parse(since);
        return at == null
                ? Optional.empty()
                : Optional.of(new DrainFailure(end < 0 ? error : error.substring(0, end), at));
    }

    private static String text(String s) {
        return s == null ? "" : s;
    }
}
