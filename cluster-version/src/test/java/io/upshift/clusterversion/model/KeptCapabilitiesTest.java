package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeptCapabilitiesTest {

    private static final Set<String> CRD_4_13 =
            Set.of(
                    "openshift-samples",
                    "baremetal",
                    "marketplace",
                    "Console",
                    "Insights",
                    "Storage",
                    "CSISnapshot",
                    "NodeTuning");

    private static ClusterVersion cv(String annotation, String... inStatus) {
        var b =
                new ClusterVersionBuilder()
                        .withNewMetadata()
                        .withName("version")
                        .withAnnotations(
                                annotation == null
                                        ? Map.of()
                                        : Map.of(KeptCapabilities.ANNOTATION, annotation))
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .withNewStatus()
                        .withNewCapabilities()
                        .withEnabledCapabilities(inStatus)
                        .endCapabilities()
                        .endStatus();
        return b.build();
    }

    @Test
    void aCrdThatHoldsEveryEnabledNameNeedsNoAnnotation() {
        assertThat(KeptCapabilities.annotation(cv(null, "Console"), List.of("Console"), CRD_4_13))
                .isEmpty();
        assertThat(KeptCapabilities.annotation(cv(null), List.of("Build"), null))
                .as("a CRD without an enum")
                .isEmpty();
    }

    @Test
    void aNameTheCrdCannotHoldPutsTheWholeEnabledSetInTheAnnotation() {
        assertThat(
                        KeptCapabilities.annotation(
                                cv(null, "Build", "Console", "MachineAPI"),
                                List.of("MachineAPI", "Console", "Build"),
                                CRD_4_13))
                .contains("Build,Console,MachineAPI");
    }

    @Test
    void onceWrittenTheAnnotationFollowsTheEnabledSetAndIsNotRewrittenWhenEqual() {
        ClusterVersion kept = cv("Build,MachineAPI", "Console");
        assertThat(KeptCapabilities.annotation(kept, List.of("MachineAPI", "Build"), CRD_4_13))
                .isEmpty();
        assertThat(KeptCapabilities.annotation(kept, List.of("MachineAPI", "Build"), null))
                .as("the newer CRD back: kept as it is")
                .isEmpty();
        assertThat(
                        KeptCapabilities.annotation(
                                kept, List.of("Build", "MachineAPI", "NodeTuning"), null))
                .isEqualTo(Optional.of("Build,MachineAPI,NodeTuning"));
    }

    @Test
    void enabledBeforeIsWhatStatusListsAndWhatTheAnnotationKeeps() {
        assertThat(KeptCapabilities.enabledBefore(cv("Build, MachineAPI", "Console")))
                .containsExactly("Build", "Console", "MachineAPI");
        assertThat(KeptCapabilities.enabledBefore(cv(null, "Console"))).containsExactly("Console");
        assertThat(KeptCapabilities.enabledBefore(new ClusterVersion())).isEmpty();
    }
}
