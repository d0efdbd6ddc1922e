package io.upshift.releases.inclusion;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.releases.manifest.Manifest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which feature gates are enabled, for the manifests annotated {@code
 * release.openshift.io/feature-gate}: the cluster's FeatureGate {@code cluster} says so in its
 * status, one entry per release version; a release the status has no entry for yet (a new cluster,
 * or an update the config operator has not caught up with) takes the gates its own payload declares
 * for the cluster's profile and feature set (the {@code FeatureGate} manifests the config API
 * ships, one per profile and feature set).
 */
public final class FeatureGates {

    private FeatureGates() {}

    /** The cluster's feature set from FeatureGate {@code cluster}'s spec: "" is Default. */
    public static String featureSet(JsonNode featureGate) {
        return featureGate == null ? "" : featureGate.path("spec").path("featureSet").asText("");
    }

    /**
     * The gates FeatureGate {@code cluster}'s status enables, per release version it has an entry
     * for.
     */
    public static Map<String, Set<String>> byVersion(JsonNode featureGate) {
        Map<String, Set<String>> out = new TreeMap<>();
        if (featureGate == null) return out;
        for (JsonNode entry : featureGate.path("status").path("featureGates")) {
            String version = entry.path("version").asText("");
            if (!version.isEmpty()) out.putIfAbsent(version, enabled(entry));
        }
        return out;
    }

    /**
     * The gates the payload's own FeatureGate manifest for {@code profile} and {@code featureSet}
     * enables (empty when the payload has none for them).
     */
    public static Set<String> ofPayload(
            List<Manifest> documents, String profile, String featureSet) {
        String set = featureSet == null || featureSet.isEmpty() ? "Default" : featureSet;
        for (Manifest m : documents) {
            if (!"FeatureGate".equals(m.kind()) || !"config.openshift.io".equals(m.group()))
                continue;
            if (profile != null && !m.annotations().containsKey(Inclusion.INCLUDE_PREFIX + profile))
                continue;
            JsonNode status = m.object().path("status").path("featureGates");
            String declared = m.object().path("spec").path("featureSet").asText("");
            if (!(declared.isEmpty() ? "Default" : declared).equals(set) || status.isEmpty())
                continue;
            return enabled(status.get(0));
        }
        return Set.of();
    }

    private static Set<String> enabled(JsonNode entry) {
        Set<String> names = new TreeSet<>();
        for (JsonNode gate : entry.path("enabled")) names.add(gate.path("name").asText());
        return names;
    }
}
