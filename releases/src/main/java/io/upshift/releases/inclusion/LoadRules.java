package io.upshift.releases.inclusion;

import io.upshift.releases.manifest.Manifest;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What decides, when a payload is loaded, which of its manifests a cluster gets at all (upstream's
 * {@code LoadUpdate}): the cluster profile and exclude id the controller is configured with, the
 * feature set, and the enabled feature gates. Capabilities and overrides are decided later, when
 * applying, since they can change while a payload is applied.
 *
 * @param featureSet "" for Default
 */
public record LoadRules(String profile, String excludeIdentifier, String featureSet, Gates gates) {

    /** Where the enabled feature gates come from. */
    public sealed interface Gates {
        /** The gates enabled for a payload of {@code version} holding {@code documents}. */
        Set<String> enabled(
                String version, List<Manifest> documents, String profile, String featureSet);

        /** These gates, whatever the payload. */
        record Fixed(Set<String> names) implements Gates {
            public Fixed {
                names = Set.copyOf(names);
            }

            @Override
            public Set<String> enabled(
                    String version, List<Manifest> documents, String profile, String featureSet) {
                return names;
            }
        }

        /**
         * The cluster's FeatureGate status, per release version ({@link FeatureGates#ofCluster}); a
         * version it has no entry for takes the payload's own declaration ({@link
         * FeatureGates#ofPayload}).
         */
        record ByVersion(Map<String, Set<String>> cluster) implements Gates {
            public ByVersion {
                cluster = Map.copyOf(cluster);
            }

            @Override
            public Set<String> enabled(
                    String version, List<Manifest> documents, String profile, String featureSet) {
                Set<String> known = cluster.get(version);
                return known != null
                        ? known
                        : FeatureGates.ofPayload(documents, profile, featureSet);
            }
        }
    }

    public LoadRules {
        featureSet = featureSet == null ? "" : featureSet;
    }

    /**
     * A default cluster: the high-availability profile, Default feature set, gates as the payload
     * declares them.
     */
    public static LoadRules defaults() {
        return new LoadRules(
                InclusionRules.DEFAULT_PROFILE, null, "", new Gates.ByVersion(Map.of()));
    }

    /** The inclusion rules for a payload of {@code version} holding {@code documents}. */
    public InclusionRules rules(String version, List<Manifest> documents) {
        return InclusionRules.defaults()
                .withProfile(profile)
                .withExcludeIdentifier(excludeIdentifier)
                .withFeatureSet(featureSet, gates.enabled(version, documents, profile, featureSet));
    }
}
