package io.upshift.status.model;

import static io.upshift.pools.model.NodeAnnotations.CURRENT_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.DESIRED_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.DESIRED_DRAIN;
import static io.upshift.pools.model.NodeAnnotations.LAST_APPLIED_DRAIN;
import static io.upshift.pools.model.NodeAnnotations.PREFIX;
import static io.upshift.pools.model.NodeAnnotations.REASON;
import static io.upshift.pools.model.NodeAnnotations.STATE;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.base.gofmt.GoDuration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Assesses one node of a pool from its machine-config annotations and conditions, as {@code oc adm
 * upgrade status} does (which follows the machine-config operator's own node state rules).
 */
final class NodeAssessor {
    static final String CURRENT_IMAGE = PREFIX + "currentImage";
    static final String DESIRED_IMAGE = PREFIX + "desiredImage";
    static final String LAYERING_LABEL = PREFIX + "layering-enabled";
    static final String POOL_OS_IMAGE = PREFIX + "newestImageEquivalentConfig";

    static final String NOT_READY = "Not ready";
    static final String DISK_PRESSURE = "Disk pressure";
    static final String NETWORK_UNAVAILABLE = "Network unavailable";
    static final String UNSCHEDULABLE = "Node is marked unschedulable";
    static final String MCD_WORKING = "Machine Config Daemon is processing the node";

    private final String targetVersion;
    private final boolean multiArchInProgress;
    private final Map<String, String> versionOfConfig;

    /**
     * @param targetVersion the version of the newest history entry ("" without history)
     * @param versionOfConfig the release version of each MachineConfig by name ("" when it has
     *     none)
     */
    NodeAssessor(
            String targetVersion,
            boolean multiArchInProgress,
            Map<String, String> versionOfConfig) {
        this.targetVersion = targetVersion;
        this.multiArchInProgress = multiArchInProgress;
        this.versionOfConfig = versionOfConfig;
    }

    NodeFacts assess(Node node, MachineConfigPool pool) {
        Map<String, String> a = annotations(node);
        String name = node.getMetadata().getName();
        String currentConfig = a.getOrDefault(CURRENT_CONFIG, "");
        boolean hasDesired = a.containsKey(DESIRED_CONFIG);
        String desiredConfig = a.getOrDefault(DESIRED_CONFIG, "");
        String currentVersion = versionOfConfig.getOrDefault(currentConfig, "");
        String desiredVersion = versionOfConfig.getOrDefault(desiredConfig, "");
        boolean foundCurrent = !currentVersion.isEmpty();
        boolean foundDesired = !desiredVersion.isEmpty();
        String poolConfig = poolConfiguration(pool);

        List<NodeFacts.UnavailableReason> reasons = new ArrayList<>();
        boolean isUnavailable =
                isUnavailable(node, a, reasons) && desiredImageMatchesPool(a, pool, reasons);
        String state = a.getOrDefault(STATE, "");
        boolean isDegraded =
                !desiredConfig.isEmpty()
                        && (state.equals("Degraded") || state.equals("Unreconcilable"));
        boolean annotationMatched = currentConfig.equals(desiredConfig);
        boolean desiredIsPool = desiredConfig.equals(poolConfig);
        boolean isUpdated =
                foundCurrent
                        && targetVersion.equals(currentVersion)
                        // During a multi-arch migration the version stays the same: the config must
                        // have been applied too.
                        && (!multiArchInProgress
                                || !hasDesired
                                || (annotationMatched && desiredIsPool));
        // Without a known current version the node could be anywhere; do not claim it is updating.
        boolean isUpdating =
                !isUpdated
                        && foundCurrent
                        && foundDesired
                        && targetVersion.equals(desiredVersion)
                        && !annotationMatched
                        && desiredIsPool;

        NodePhase phase = phase(pool, a, isUpdating, isUpdated);
        NodeAssessment assessment;
        Long estimate;
        switch (phase) {
            case Paused -> {
                assessment = NodeAssessment.Excluded;
                estimate = 0L;
            }
            case Pending -> {
                assessment = NodeAssessment.Outdated;
                estimate = null;
            }
            case Draining -> {
                assessment = NodeAssessment.Progressing;
                estimate = 10 * GoDuration.MINUTE;
            }
            case Updating, Rebooting -> {
                assessment = NodeAssessment.Progressing;
                estimate = 5 * GoDuration.MINUTE;
            }
            default -> {
                assessment = NodeAssessment.Completed;
                estimate = 0L;
            }
        }
        String message = "";
        if (isUnavailable && !isUpdating) {
            assessment = NodeAssessment.Unavailable;
            message =
                    String.join(
                            " | ",
                            reasons.stream().map(NodeFacts.UnavailableReason::reason).toList());
            estimate = isUpdated ? 0L : null;
        }
        String degradedReason = a.getOrDefault(REASON, "");
        if (isDegraded) {
            assessment = NodeAssessment.Degraded;
            message = degradedReason;
            estimate = isUpdated ? 0L : null;
        }
        // Long names make messages unreadable; short ones could match unrelated words.
        if (name.length() >= 8) {
            message = message.replace(name, "<node>");
        }
        return new NodeFacts(
                name,
                assessment,
                phase,
                currentVersion,
                estimate,
                message,
                isUnavailable,
                isDegraded,
                isUpdating,
                isUpdated,
                List.copyOf(reasons),
                degradedReason);
    }

    static Map<String, String> annotations(Node node) {
        Map<String, String> a = node.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    static String poolConfiguration(MachineConfigPool pool) {
        if (pool.getSpec() == null || pool.getSpec().getConfiguration() == null) {
            return "";
        }
        String n = pool.getSpec().getConfiguration().getName();
        return n == null ? "" : n;
    }

    private static NodePhase phase(
            MachineConfigPool pool, Map<String, String> a, boolean isUpdating, boolean isUpdated) {
        if (isUpdating && isDraining(a, true)) {
            return NodePhase.Draining;
        }
        if (isUpdating) {
            return switch (a.getOrDefault(STATE, "")) {
                case "Rebooting" -> NodePhase.Rebooting;
                case "Done" -> NodePhase.Updated;
                default -> NodePhase.Updating;
            };
        }
        if (isUpdated) {
            return NodePhase.Updated;
        }
        return pool.getSpec() != null && Boolean.TRUE.equals(pool.getSpec().getPaused())
                ? NodePhase.Paused
                : NodePhase.Pending;
    }

    private static boolean isDraining(Map<String, String> a, boolean isUpdating) {
        String desired = a.getOrDefault(DESIRED_DRAIN, "");
        String applied = a.getOrDefault(LAST_APPLIED_DRAIN, "");
        if (desired.isEmpty() || applied.isEmpty()) {
            return false;
        }
        if (!desired.equals(applied) && desired.split("-", -1)[0].equals("drain")) {
            return true;
        }
        // The daemon has not yet moved from Done to Working: it is about to drain, so do not report
        // it done.
        return isUpdating && "Done".equals(a.get(STATE));
    }

    /**
     * The machine-config operator's notion of an unavailable node, collecting every reason on the
     * way.
     */
    private static boolean isUnavailable(
            Node node, Map<String, String> a, List<NodeFacts.UnavailableReason> reasons) {
        boolean ready = true;
        if (node.getStatus() != null && node.getStatus().getConditions() != null) {
            for (NodeCondition c : node.getStatus().getConditions()) {
                String reason =
                        switch (c.getType() == null ? "" : c.getType()) {
                            case "Ready" -> "True".equals(c.getStatus()) ? null : NOT_READY;
                            case "DiskPressure" ->
                                    "False".equals(c.getStatus()) ? null : DISK_PRESSURE;
                            case "NetworkUnavailable" ->
                                    "False".equals(c.getStatus()) ? null : NETWORK_UNAVAILABLE;
                            default -> null;
                        };
                if (reason != null) {
                    reasons.add(
                            new NodeFacts.UnavailableReason(
                                    reason,
                                    nullToEmpty(c.getMessage()),
                                    Times.parse(c.getLastTransitionTime())));
                    ready = false;
                }
            }
        }
        if (node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
            reasons.add(new NodeFacts.UnavailableReason(UNSCHEDULABLE, "", null));
            ready = false;
        }
        if (!ready) {
            return true;
        }
        if (isDone(a)) {
            return false;
        }
        String state = a.getOrDefault(STATE, "");
        if (state.equals("Degraded") || state.equals("Unreconcilable")) {
            return false;
        }
        reasons.add(new NodeFacts.UnavailableReason(MCD_WORKING, "", null));
        return true;
    }

    private static boolean isDone(Map<String, String> a) {
        String current = a.getOrDefault(CURRENT_CONFIG, "");
        String desired = a.getOrDefault(DESIRED_CONFIG, "");
        return !current.isEmpty()
                && current.equals(desired)
                && isImageDone(a)
                && "Done".equals(a.get(STATE));
    }

    private static boolean isImageDone(Map<String, String> a) {
        if (!a.containsKey(DESIRED_IMAGE) && !a.containsKey(CURRENT_IMAGE)) {
            return true;
        }
        String desired = a.getOrDefault(DESIRED_IMAGE, "");
        String current = a.getOrDefault(CURRENT_IMAGE, "");
        return !desired.isEmpty() && !current.isEmpty() && desired.equals(current);
    }

    /**
     * A layered pool with an OS image expects that image on the node; an ordinary pool expects
     * none.
     */
    private static boolean desiredImageMatchesPool(
            Map<String, String> a,
            MachineConfigPool pool,
            List<NodeFacts.UnavailableReason> reasons) {
        Map<String, String> labels = pool.getMetadata().getLabels();
        Map<String, String> poolAnnotations = pool.getMetadata().getAnnotations();
        String osImage =
                poolAnnotations == null ? "" : poolAnnotations.getOrDefault(POOL_OS_IMAGE, "");
        boolean layered = labels != null && labels.containsKey(LAYERING_LABEL);
        String value = a.getOrDefault(DESIRED_IMAGE, "");
        if (layered && !osImage.isEmpty()) {
            if (osImage.equals(value)) {
                return true;
            }
            reasons.add(
                    new NodeFacts.UnavailableReason(
                            "Node has an unexpected annotation " + POOL_OS_IMAGE + "=" + osImage,
                            "",
                            null));
            return false;
        }
        return value.isEmpty();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
