package io.upshift.releases.inclusion;

import io.upshift.releases.capability.Capabilities;
import java.util.List;
import java.util.Set;

/**
 * What decides whether a manifest applies to a cluster. A null field is a rule not checked: loading
 * a payload checks the profile, exclusion, feature set, feature gates and major version, which
 * cannot change while it is applied; applying checks capabilities and overrides, which can.
 *
 * @param profile cluster profile, e.g. {@code self-managed-high-availability}: manifests must opt
 *     in
 * @param excludeIdentifier manifests annotated {@code exclude.release.openshift.io/<id>: "true"}
 *     are left out
 * @param featureSet the cluster's feature set; "" is Default
 * @param enabledFeatureGates gates named by {@code release.openshift.io/feature-gate} ({@code
 *     A,-B})
 * @param majorVersion the payload's major version, for {@code release.openshift.io/major-version}
 * @param capabilities known and enabled capabilities
 * @param overrides ClusterVersion overrides; unmanaged ones exclude their object
 */
public record InclusionRules(
        String profile,
        String excludeIdentifier,
        String featureSet,
        Set<String> enabledFeatureGates,
        Long majorVersion,
        Capabilities capabilities,
        List<ComponentOverride> overrides) {

    public static final String DEFAULT_PROFILE = "self-managed-high-availability";

    public InclusionRules {
        enabledFeatureGates = enabledFeatureGates == null ? null : Set.copyOf(enabledFeatureGates);
        overrides = overrides == null ? List.of() : List.copyOf(overrides);
    }

    /** No rule checked: every manifest is included. */
    public static InclusionRules none() {
        return new InclusionRules(null, null, null, null, null, null, List.of());
    }

    /**
     * The load-time rules of a default cluster: default profile and feature set, no gates; the
     * payload loader adds the payload's major version.
     */
    public static InclusionRules defaults() {
        return new InclusionRules(DEFAULT_PROFILE, null, "", Set.of(), null, null, List.of());
    }

    public InclusionRules withProfile(String p) {
        return new InclusionRules(
                p,
                excludeIdentifier,
                featureSet,
                enabledFeatureGates,
                majorVersion,
                capabilities,
                overrides);
    }

    public InclusionRules withExcludeIdentifier(String id) {
        return new InclusionRules(
                profile,
                id,
                featureSet,
                enabledFeatureGates,
                majorVersion,
                capabilities,
                overrides);
    }

    public InclusionRules withFeatureSet(String set, Set<String> gates) {
        return new InclusionRules(
                profile, excludeIdentifier, set, gates, majorVersion, capabilities, overrides);
    }

    public InclusionRules withMajorVersion(Long major) {
        return new InclusionRules(
                profile,
                excludeIdentifier,
                featureSet,
                enabledFeatureGates,
                major,
                capabilities,
                overrides);
    }

    public InclusionRules withCapabilities(Capabilities caps) {
        return new InclusionRules(
                profile,
                excludeIdentifier,
                featureSet,
                enabledFeatureGates,
                majorVersion,
                caps,
                overrides);
    }

    public InclusionRules withOverrides(List<ComponentOverride> o) {
        return new InclusionRules(
                profile,
                excludeIdentifier,
                featureSet,
                enabledFeatureGates,
                majorVersion,
                capabilities,
                o);
    }
}
