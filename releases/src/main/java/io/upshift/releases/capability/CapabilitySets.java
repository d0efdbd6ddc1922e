package io.upshift.releases.capability;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Capability baselines (None, v4.11 ... v4.18, vCurrent) and the enabled set: baseline + additional
 * + everything enabled before (a capability is never disabled once enabled) + what an update had to
 * enable implicitly + what the controller always enables, less the capabilities whose feature gates
 * are off. The tables are openshift/api's {@code ClusterVersionCapabilitySets} and {@code
 * KnownClusterVersionCapabilities} (config/v1/types_cluster_version.go at commit
 * 2a3d73913b5a7caec4c57d5c3d04f51106ec4da3): it defines no v4.19 or later set; vCurrent has
 * CompatibilityRequirements and ClusterAPI on top of v4.18, both gated ({@link GatedCapabilities}),
 * so that without their gates vCurrent and the known capabilities are the 17 of the 4.19 operator.
 */
public final class CapabilitySets {

    public static final Map<String, List<String>> BASELINES = baselines();

    /** Every capability this version knows, in openshift/api's order. */
    public static final List<String> KNOWN =
            List.of(
                    "baremetal",
                    "Console",
                    "Insights",
                    "marketplace",
                    "Storage",
                    "openshift-samples",
                    "CSISnapshot",
                    "NodeTuning",
                    "MachineAPI",
                    "Build",
                    "DeploymentConfig",
                    "ImageRegistry",
                    "OperatorLifecycleManager",
                    "OperatorLifecycleManagerV1",
                    "CloudCredential",
                    "Ingress",
                    "CloudControllerManager",
                    "CompatibilityRequirements",
                    "ClusterAPI");

    private CapabilitySets() {}

    private static Map<String, List<String>> baselines() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("None", List.of());
        m.put("v4.11", List.of("baremetal", "marketplace", "openshift-samples", "MachineAPI"));
        m.put("v4.12", plus(m.get("v4.11"), "Console", "Insights", "Storage", "CSISnapshot"));
        m.put("v4.13", plus(m.get("v4.12"), "NodeTuning"));
        m.put("v4.14", plus(m.get("v4.13"), "Build", "DeploymentConfig", "ImageRegistry"));
        m.put("v4.15", plus(m.get("v4.14"), "OperatorLifecycleManager", "CloudCredential"));
        m.put("v4.16", plus(m.get("v4.15"), "Ingress", "CloudControllerManager"));
        m.put("v4.17", m.get("v4.16"));
        m.put("v4.18", plus(m.get("v4.17"), "OperatorLifecycleManagerV1"));
        m.put("vCurrent", plus(m.get("v4.18"), "CompatibilityRequirements", "ClusterAPI"));
        return Collections.unmodifiableMap(m);
    }

    private static List<String> plus(List<String> base, String... more) {
        List<String> out = new ArrayList<>(base);
        out.addAll(List.of(more));
        return List.copyOf(out);
    }

    /** Every capability this version knows, sorted, feature-gated ones included. */
    public static Set<String> known() {
        return new TreeSet<>(KNOWN);
    }

    /**
     * The known and enabled capabilities of a cluster, and among the enabled the implicitly enabled
     * ones: those the spec (baseline and additional) does not ask for, enabled because they must
     * stay so (upstream's {@code SetCapabilities}). As upstream's they follow from the spec, the
     * status and the controller's flags alone, so a restarted controller finds the same ones.
     *
     * @param baseline spec baselineCapabilitySet; null or empty means vCurrent, a set this version
     *     does not know enables nothing (as upstream's lookup of an unknown set)
     * @param additional spec additionalEnabledCapabilities
     * @param ensured capabilities that must stay enabled: those enabled before (status
     *     enabledCapabilities), those an update must enable, the controller's {@code
     *     --always-enable-capabilities}
     * @param featureGates the enabled feature gates: a capability whose gates are all disabled
     *     ({@link GatedCapabilities}) is neither known nor enabled
     */
    public static Capabilities of(
            String baseline,
            Collection<String> additional,
            Collection<String> ensured,
            Set<String> featureGates) {
        Set<String> asked =
                new TreeSet<>(
                        BASELINES.getOrDefault(
                                baseline == null || baseline.isEmpty() ? "vCurrent" : baseline,
                                List.of()));
        asked.addAll(additional);
        Set<String> enabled = new TreeSet<>(asked);
        enabled.addAll(ensured);
        Set<String> implicit = new TreeSet<>(enabled);
        implicit.removeAll(asked);
        Set<String> excluded = GatedCapabilities.excluded(featureGates);
        Set<String> known = known();
        known.removeAll(excluded);
        enabled.removeAll(excluded);
        implicit.removeAll(excluded);
        return new Capabilities(known, enabled, implicit);
    }
}
