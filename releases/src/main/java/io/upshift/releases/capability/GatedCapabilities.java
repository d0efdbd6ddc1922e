package io.upshift.releases.capability;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Capabilities that exist only while a feature gate enables them (upstream's {@code
 * featureGatedCapabilities}, lib/capability): one whose gates are all disabled is neither known nor
 * enabled, whatever the spec asks, so that a release whose feature set lacks them behaves as one
 * that never had them (the 4.19 operator knows neither).
 */
public final class GatedCapabilities {

    /** Each gated capability and the gates, any one of which makes it available. */
    public static final Map<String, List<String>> GATES =
            Map.of(
                    "CompatibilityRequirements",
                    List.of("CRDCompatibilityRequirementOperator", "ClusterAPIMachineManagement"),
                    "ClusterAPI",
                    List.of("ClusterAPIMachineManagement"));

    private GatedCapabilities() {}

    /** The capabilities none of whose gates is among {@code enabledGates}. */
    public static Set<String> excluded(Set<String> enabledGates) {
        Set<String> out = new TreeSet<>();
        GATES.forEach(
                (capability, gates) -> {
                    if (gates.stream().noneMatch(enabledGates::contains)) out.add(capability);
                });
        return out;
    }
}
