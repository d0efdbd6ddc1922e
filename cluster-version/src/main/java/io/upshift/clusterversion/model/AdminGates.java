package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Updates the administrator must acknowledge, as upstream checks them (pkg/cvo/upgradeable.go,
 * clusterAdminAcksCompletedUpgradeable): ConfigMap {@code openshift-config-managed/admin-gates}
 * holds gates {@code ack-<major>.<minor>-<name>: <message>}; a gate of the current version's minor
 * holds the cluster until {@code openshift-config/admin-acks} has its key set to {@code "true"}. A
 * missing ConfigMap, a malformed key or an empty message also make the cluster not upgradeable,
 * each with upstream's reason.
 */
public final class AdminGates {

    public static final String GATES_NAMESPACE = "openshift-config-managed";
    public static final String GATES = "admin-gates";
    public static final String ACKS_NAMESPACE = "openshift-config";
    public static final String ACKS = "admin-acks";

    /** Upstream's pattern, matched at the start of a gate's key. */
    static final String GATE_FORMAT = "^ack-[4-5][.]([0-9]{1,})-[^-]";

    private static final Pattern GATE = Pattern.compile(GATE_FORMAT);

    /**
     * The data of both ConfigMaps as the caches hold them.
     *
     * @param gates the admin-gates data; null when the ConfigMap does not exist
     * @param acks the admin-acks data; null when the ConfigMap does not exist
     */
    public record ConfigMaps(Map<String, String> gates, Map<String, String> acks) {
        /** Both present, no gate. */
        public static final ConfigMaps NONE = new ConfigMaps(Map.of(), Map.of());
    }

    private AdminGates() {}

    /**
     * The failed check for a cluster whose history is {@code history}; none while history is empty
     * (early in an install).
     */
    public static Optional<UpgradeableCheck> check(List<UpdateHistory> history, ConfigMaps maps) {
        String current = currentVersion(history);
        if (current.isEmpty()) return Optional.empty();
        if (maps.gates() == null) {
            return Optional.of(
                    UpgradeableCheck.failed(
                            UpgradeableCheck.ADMIN_ACKS,
                            "UnableToAccessAdminGatesConfigMap",
                            GATES + " configmap not found."));
        }
        if (maps.acks() == null) {
            return Optional.of(
                    UpgradeableCheck.failed(
                            UpgradeableCheck.ADMIN_ACKS,
                            "UnableToAccessAdminAcksConfigMap",
                            ACKS + " configmap not found."));
        }
        // per reason, its messages sorted and joined by a space
        Map<String, List<String>> byReason = new TreeMap<>();
        for (Map.Entry<String, String> gate : maps.gates().entrySet()) {
            String[] failed =
                    gate(
                            gate.getKey(),
                            gate.getValue() == null ? "" : gate.getValue(),
                            current,
                            maps.acks());
            if (failed != null)
                byReason.computeIfAbsent(failed[0], r -> new ArrayList<>()).add(failed[1]);
        }
        if (byReason.isEmpty()) return Optional.empty();
        List<String> messages = new ArrayList<>();
        byReason.values()
                .forEach(m -> messages.add(String.join(" ", m.stream().sorted().toList())));
        if (byReason.size() == 1) {
            return Optional.of(
                    UpgradeableCheck.failed(
                            UpgradeableCheck.ADMIN_ACKS,
                            byReason.keySet().iterator().next(),
                            messages.get(0)));
        }
        return Optional.of(
                UpgradeableCheck.failed(
                        UpgradeableCheck.ADMIN_ACKS,
                        "MultipleReasons",
                        String.join(" ", messages.stream().sorted().toList())));
    }

    /**
     * {reason, message} when the gate holds the cluster; null when it does not apply or was
     * acknowledged.
     */
    private static String[] gate(
            String key, String message, String current, Map<String, String> acks) {
        Matcher m = GATE.matcher(key);
        if (!m.find()) {
            return new String[] {
                "AdminAckConfigMapGateNameError",
                GATES
                        + " configmap gate name "
                        + key
                        + " has invalid format; must comply with "
                        + ClusterVersionValidation.quoted(GATE_FORMAT)
                        + "."
            };
        }
        // as upstream: the minor of "ack-4.19-..." against the current version's minor, the major
        // not compared
        if (!minor(m.group().split("-")[1]).equals(minor(current))) return null;
        if (message.isEmpty())
            return new String[] {
                "AdminAckConfigMapGateValueError",
                GATES + " configmap gate " + key + " must contain a non-empty value."
            };
        if (!"true".equals(acks.get(key))) return new String[] {"AdminAckRequired", message};
        return null;
    }

    /**
     * The cluster's current version, as upstream's GetCurrentVersion: the newest Completed entry's,
     * else the oldest entry's (the install in progress); empty without history.
     */
    static String currentVersion(List<UpdateHistory> history) {
        if (history == null || history.isEmpty()) return "";
        for (UpdateHistory h : history)
            if (History.COMPLETED.equals(h.getState())) return nz(h.getVersion());
        return nz(history.get(history.size() - 1).getVersion());
    }

    private static String minor(String version) {
        String[] parts = version.split("\\.", -1);
        return parts.length < 2 ? "" : parts[1];
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
