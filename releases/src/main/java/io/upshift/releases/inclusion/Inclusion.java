package io.upshift.releases.inclusion;

import io.upshift.releases.manifest.Manifest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a manifest applies to a cluster, and why not: the rules of the reference's manifest
 * inclusion, checked in its order so that the reason given is the one the reference would give. A
 * pure function of manifest and rules.
 */
public record Inclusion(boolean included, String reason) {

    public static final String FEATURE_SET = "release.openshift.io/feature-set";
    public static final String FEATURE_GATE = "release.openshift.io/feature-gate";
    public static final String MAJOR_VERSION = "release.openshift.io/major-version";
    public static final String INCLUDE_PREFIX = "include.release.openshift.io/";
    public static final String EXCLUDE_PREFIX = "exclude.release.openshift.io/";

    static final Set<String> KNOWN_FEATURE_SETS =
            Set.of(
                    "Default",
                    "TechPreviewNoUpgrade",
                    "DevPreviewNoUpgrade",
                    "CustomNoUpgrade",
                    "OKD");

    private static final Inclusion INCLUDED = new Inclusion(true, "");

    public static Inclusion decide(Manifest m, InclusionRules rules) {
        Map<String, String> a = m.annotations();
        if (a.isEmpty()) return excluded("no annotations");
        if (rules.excludeIdentifier() != null
                && "true".equals(a.get(EXCLUDE_PREFIX + rules.excludeIdentifier()))) {
            return excluded(EXCLUDE_PREFIX + rules.excludeIdentifier() + "=true");
        }
        if (rules.featureSet() != null
                && rules.enabledFeatureGates() != null
                && a.containsKey(FEATURE_SET)
                && a.containsKey(FEATURE_GATE)) {
            return excluded(
                    "both feature set and feature gate annotations are present: manifests may"
                            + " specify either, not both");
        }
        String why;
        if (rules.featureSet() != null
                && (why = featureSet(rules.featureSet(), a.get(FEATURE_SET))) != null)
            return excluded(why);
        if (rules.enabledFeatureGates() != null
                && (why = featureGates(rules.enabledFeatureGates(), a.get(FEATURE_GATE))) != null) {
            return excluded(why);
        }
        if (rules.majorVersion() != null
                && (why = majorVersion(m, rules.majorVersion(), a.get(MAJOR_VERSION))) != null) {
            return excluded(why);
        }
        if (rules.profile() != null) {
            String key = INCLUDE_PREFIX + rules.profile();
            String v = a.get(key);
            if (v == null) return excluded(key + " unset");
            if (!"true".equals(v)) return excluded("unrecognized value " + key + "=" + v);
        }
        if (rules.capabilities() != null && (why = capabilities(m, rules)) != null)
            return excluded(why);
        for (ComponentOverride o : rules.overrides()) {
            if (o.unmanaged() && o.matches(m))
                return excluded("overridden"); // upstream's word: unmanaged in ClusterVersion
            // spec.overrides
        }
        return INCLUDED;
    }

    private static Inclusion excluded(String reason) {
        return new Inclusion(false, reason);
    }

    private static String featureSet(String clusterSet, String annotation) {
        if (annotation == null) return null;
        String required = clusterSet.isEmpty() ? "Default" : clusterSet;
        List<String> sets = Arrays.asList(annotation.split(","));
        for (String s : sets) {
            if (!KNOWN_FEATURE_SETS.contains(s)) {
                return "unrecognized value \""
                        + s
                        + "\" in "
                        + FEATURE_SET
                        + "="
                        + annotation
                        + "; known values are: "
                        + String.join(",", new TreeSet<>(KNOWN_FEATURE_SETS));
            }
        }
        return sets.contains(required)
                ? null
                : "\""
                        + required
                        + "\" is required, and "
                        + FEATURE_SET
                        + "="
                        + String.join(",", new TreeSet<>(sets));
    }

    private static String featureGates(Set<String> enabled, String annotation) {
        if (annotation == null) return null;
        for (String req : annotation.split(",")) {
            req = req.trim();
            if (req.isEmpty()) continue;
            if (req.startsWith("-")) {
                if (enabled.contains(req.substring(1))) {
                    return "feature gate "
                            + req.substring(1)
                            + " is enabled but manifest requires it to be disabled";
                }
            } else if (!enabled.contains(req)) {
                return "feature gate " + req + " is required but not enabled";
            }
        }
        return null;
    }

    private static String majorVersion(Manifest m, long major, String annotation) {
        if (annotation == null) return null;
        boolean crd =
                "CustomResourceDefinition".equals(m.kind())
                        && "apiextensions.k8s.io".equals(m.group());
        boolean gate = "FeatureGate".equals(m.kind()) && "config.openshift.io".equals(m.group());
        if (!crd && !gate)
            return "major version filtering is only supported for feature gates and custom"
                    + " resources";
        Set<Long> include = new HashSet<>(), exclude = new HashSet<>();
        for (String req : annotation.split(",")) {
            req = req.trim();
            if (req.isEmpty()) continue;
            boolean negative = req.startsWith("-");
            String number = negative ? req.substring(1) : req;
            try {
                (negative ? exclude : include).add(Long.parseUnsignedLong(number));
            } catch (NumberFormatException e) {
                return "invalid "
                        + (negative ? "excluded" : "included")
                        + " major version \""
                        + number
                        + "\" in annotation";
            }
        }
        Set<Long> overlap = new HashSet<>(include);
        overlap.retainAll(exclude);
        if (!overlap.isEmpty()) return "inclusion and exclusion requirements overlap: " + overlap;
        if (include.contains(major)) return null;
        if (exclude.contains(major))
            return "major version " + major + " matches excluded version " + major;
        if (!include.isEmpty())
            return "major version " + major + " does not match any required versions";
        return null;
    }

    private static String capabilities(Manifest m, InclusionRules rules) {
        List<String> unknown = new ArrayList<>(), disabled = new ArrayList<>();
        for (String c : m.capabilities()) {
            if (!rules.capabilities().known().contains(c)) unknown.add(c);
            else if (!rules.capabilities().enabled().contains(c)) disabled.add(c);
        }
        if (!unknown.isEmpty())
            return "unrecognized capability names: " + String.join(", ", unknown);
        if (!disabled.isEmpty()) return "disabled capabilities: " + String.join(", ", disabled);
        return null;
    }
}
