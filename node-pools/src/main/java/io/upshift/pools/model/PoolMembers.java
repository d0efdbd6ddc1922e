package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.base.kube.LabelSelectors;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which pool each node belongs to, by the pools' {@code nodeSelector}: a node that two pools select
 * goes to the custom pool rather than {@code worker} (custom pools are made of worker nodes), and
 * then to the first by name.
 */
public final class PoolMembers {
    public static final String ZONE_LABEL = "topology.kubernetes.io/zone";

    private PoolMembers() {}

    /**
     * @param pools by name; every pool gets a list, perhaps empty
     */
    public static Map<String, List<Node>> assign(List<MachineConfigPool> pools, List<Node> nodes) {
        Map<String, List<Node>> members = new LinkedHashMap<>();
        pools.forEach(p -> members.put(p.getMetadata().getName(), new ArrayList<>()));
        for (Node node : nodes) {
            Map<String, String> labels =
                    node.getMetadata().getLabels() == null
                            ? Map.of()
                            : node.getMetadata().getLabels();
            String chosen = null;
            for (MachineConfigPool p : pools) {
                if (p.getSpec() == null || p.getSpec().getNodeSelector() == null)
                    continue; // selects nothing, as upstream
                if (!LabelSelectors.matches(p.getSpec().getNodeSelector(), labels)) continue;
                if (chosen == null || chosen.equals("worker")) chosen = p.getMetadata().getName();
            }
            if (chosen != null) members.get(chosen).add(node);
        }
        return members;
    }

    /** What the node controller needs to know of a node. */
    public static PoolNode view(Node node, String controllerNode) {
        Map<String, String> a =
                node.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : node.getMetadata().getAnnotations();
        String zone =
                node.getMetadata().getLabels() == null
                        ? ""
                        : node.getMetadata().getLabels().getOrDefault(ZONE_LABEL, "");
        String created = node.getMetadata().getCreationTimestamp();
        return new PoolNode(
                node.getMetadata().getName(),
                a.getOrDefault(NodeAnnotations.CURRENT_CONFIG, ""),
                a.getOrDefault(NodeAnnotations.DESIRED_CONFIG, ""),
                a.getOrDefault(NodeAnnotations.STATE, ""),
                a.getOrDefault(NodeAnnotations.REASON, ""),
                ready(node),
                zone,
                created == null ? Instant.EPOCH : Instant.parse(created),
                node.getMetadata().getName().equals(controllerNode),
                healthySince(node, a.get(NodeAnnotations.UPDATE_DONE_AT)));
    }

    /**
     * The later of when the agent was last done and when the node's Ready condition last changed;
     * null when the agent wrote no time (or one that does not parse).
     */
    static Instant healthySince(Node node, String doneAt) {
        Instant done = instant(doneAt);
        if (done == null) return null;
        List<NodeCondition> conditions =
                node.getStatus() == null || node.getStatus().getConditions() == null
                        ? List.of()
                        : node.getStatus().getConditions();
        for (NodeCondition c : conditions) {
            if (!"Ready".equals(c.getType())) continue;
            Instant became = instant(c.getLastTransitionTime());
            return became != null && became.isAfter(done) ? became : done;
        }
        return done;
    }

    private static Instant instant(String text) {
        if (text == null || text.isEmpty()) return null;
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * Ready=True, no disk pressure, network available and schedulable, as the reference counts
     * availability.
     */
    static boolean ready(Node node) {
        if (node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable()))
            return false;
        List<NodeCondition> conditions =
                node.getStatus() == null || node.getStatus().getConditions() == null
                        ? List.of()
                        : node.getStatus().getConditions();
        boolean ready = false;
        for (NodeCondition c : conditions) {
            switch (c.getType()) {
                case "Ready" -> ready = "True".equals(c.getStatus());
                case "DiskPressure", "NetworkUnavailable" -> {
                    if ("True".equals(c.getStatus())) return false;
                }
                default -> {}
            }
        }
        return ready;
    }
}
