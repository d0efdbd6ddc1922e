package io.upshift.releases.capability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The capability tables are openshift/api's (config/v1/types_cluster_version.go, commit 2a3d739).
 */
class CapabilitySetsTest {

    @Test
    void theSetsAndTheKnownCapabilitiesAreOpenShiftApis() {
        assertThat(CapabilitySets.BASELINES.keySet())
                .containsExactly(
                        "None",
                        "v4.11",
                        "v4.12",
                        "v4.13",
                        "v4.14",
                        "v4.15",
                        "v4.16",
                        "v4.17",
                        "v4.18",
                        "vCurrent");
        assertThat(CapabilitySets.BASELINES.get("v4.18"))
                .doesNotContain("CompatibilityRequirements", "ClusterAPI")
                .hasSize(17);
        assertThat(CapabilitySets.BASELINES.get("vCurrent"))
                .containsExactlyInAnyOrderElementsOf(CapabilitySets.KNOWN)
                .contains("CompatibilityRequirements", "ClusterAPI");
        assertThat(CapabilitySets.known())
                .hasSize(19)
                .contains("ClusterAPI", "CompatibilityRequirements", "OperatorLifecycleManagerV1");
    }

    @Test
    void aClusterOnTheCurrentSetEnablesTheNewCapabilitiesAndOneOnV418DoesNot() {
        assertThat(CapabilitySets.enabled(null, List.of(), List.of(), Set.of()).enabled())
                .contains("ClusterAPI", "CompatibilityRequirements");
        assertThat(CapabilitySets.enabled("v4.18", List.of(), List.of(), Set.of()).enabled())
                .doesNotContain("ClusterAPI");
        assertThat(CapabilitySets.enabled("v4.18", List.of(), List.of(), Set.of()).known())
                .contains("ClusterAPI");
    }
}
