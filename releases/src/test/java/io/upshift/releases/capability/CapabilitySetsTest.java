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

    private static final Set<String> CAPI = Set.of("ClusterAPIMachineManagement");

    @Test
    void aClusterOnTheCurrentSetEnablesTheGatedCapabilitiesWhereTheirGatesAreOn() {
        assertThat(CapabilitySets.of(null, List.of(), List.of(), CAPI).enabled())
                .contains("ClusterAPI", "CompatibilityRequirements");
        assertThat(CapabilitySets.of("v4.18", List.of(), List.of(), CAPI).enabled())
                .doesNotContain("ClusterAPI");
        assertThat(CapabilitySets.of("v4.18", List.of(), List.of(), CAPI).known())
                .contains("ClusterAPI");
        assertThat(
                        CapabilitySets.of(
                                        null,
                                        List.of(),
                                        List.of(),
                                        Set.of("CRDCompatibilityRequirementOperator"))
                                .enabled())
                .contains("CompatibilityRequirements")
                .doesNotContain("ClusterAPI");
    }

    @Test
    void withTheirGatesOffTheGatedCapabilitiesAreNeitherKnownNorEnabledWhateverTheSpecAsks() {
        Capabilities caps =
                CapabilitySets.of(
                        "vCurrent",
                        List.of("ClusterAPI"),
                        List.of("CompatibilityRequirements"),
                        Set.of());
        // the 4.19 operator's: 17 known, all enabled by vCurrent
        assertThat(caps.known())
                .hasSize(17)
                .containsExactlyInAnyOrderElementsOf(CapabilitySets.BASELINES.get("v4.18"));
        assertThat(caps.enabled()).isEqualTo(caps.known());
        assertThat(caps.implicitlyEnabled()).isEmpty();
    }

    @Test
    void anUnknownBaselineEnablesNothingAndAnUnsetOneIsTheCurrentSet() {
        assertThat(CapabilitySets.of("v4.99", List.of("Console"), List.of(), Set.of()).enabled())
                .containsExactly("Console");
        assertThat(CapabilitySets.of("", List.of(), List.of(), Set.of()).enabled())
                .isEqualTo(CapabilitySets.of("vCurrent", List.of(), List.of(), Set.of()).enabled())
                .hasSize(17);
    }

    @Test
    void anEnsuredCapabilityTheSpecDoesNotAskForIsImplicitlyEnabled() {
        // as the 4.19 operator with --always-enable-capabilities=Ingress on baseline None
        Capabilities none = CapabilitySets.of("None", List.of(), List.of("Ingress"), Set.of());
        assertThat(none.enabled()).containsExactly("Ingress");
        assertThat(none.implicitlyEnabled()).containsExactly("Ingress");
        Capabilities current =
                CapabilitySets.of("vCurrent", List.of(), List.of("Ingress"), Set.of());
        assertThat(current.implicitlyEnabled()).isEmpty();
        Capabilities asked =
                CapabilitySets.of("None", List.of("Ingress"), List.of("Ingress"), Set.of());
        assertThat(asked.implicitlyEnabled()).isEmpty();
    }
}
