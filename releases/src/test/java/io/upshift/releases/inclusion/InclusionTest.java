package io.upshift.releases.inclusion;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.releases.capability.Capabilities;
import io.upshift.releases.manifest.Manifest;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InclusionTest {

    private static final String PROFILE =
            "include.release.openshift.io/self-managed-high-availability";

    static Manifest manifest(String kind, String apiVersion, String... annotations) {
        ObjectNode o = new ObjectMapper().createObjectNode();
        o.put("kind", kind).put("apiVersion", apiVersion);
        ObjectNode meta = o.putObject("metadata").put("name", "x").put("namespace", "ns");
        ObjectNode a = meta.putObject("annotations");
        for (int i = 0; i < annotations.length; i += 2) a.put(annotations[i], annotations[i + 1]);
        return Manifest.of("f.yaml", 1, o);
    }

    static String reason(Manifest m, InclusionRules r) {
        Inclusion d = Inclusion.decide(m, r);
        return d.included() ? "included" : d.reason();
    }

    @Test
    void profileMustOptIn() {
        InclusionRules r = InclusionRules.defaults().withMajorVersion(4L);
        assertThat(reason(manifest("ConfigMap", "v1", PROFILE, "true"), r)).isEqualTo("included");
        assertThat(reason(manifest("ConfigMap", "v1", PROFILE, "false"), r))
                .isEqualTo("unrecognized value " + PROFILE + "=false");
        assertThat(reason(manifest("ConfigMap", "v1"), r)).isEqualTo("no annotations");
        assertThat(reason(manifest("ConfigMap", "v1"), InclusionRules.none().withProfile(null)))
                .isEqualTo("no annotations");
    }

    @Test
    void excludeIdentifierLeavesOut() {
        InclusionRules r =
                InclusionRules.defaults().withMajorVersion(4L).withExcludeIdentifier("hypershift");
        assertThat(
                        reason(
                                manifest(
                                        "ConfigMap",
                                        "v1",
                                        PROFILE,
                                        "true",
                                        "exclude.release.openshift.io/hypershift",
                                        "true"),
                                r))
                .isEqualTo("exclude.release.openshift.io/hypershift=true");
    }

    @Test
    void featureSetsAndGates() {
        InclusionRules r =
                InclusionRules.defaults()
                        .withMajorVersion(4L)
                        .withFeatureSet("TechPreviewNoUpgrade", Set.of("A"));
        assertThat(
                        reason(
                                manifest(
                                        "ConfigMap",
                                        "v1",
                                        PROFILE,
                                        "true",
                                        Inclusion.FEATURE_SET,
                                        "Default,TechPreviewNoUpgrade"),
                                r))
                .isEqualTo("included");
        assertThat(
                        reason(
                                manifest(
                                        "ConfigMap",
                                        "v1",
                                        PROFILE,
                                        "true",
                                        Inclusion.FEATURE_SET,
                                        "Default"),
                                r))
                .isEqualTo(
                        "\"TechPreviewNoUpgrade\" is required, and"
                                + " release.openshift.io/feature-set=Default");
        assertThat(
                        reason(
                                manifest(
                                        "ConfigMap",
                                        "v1",
                                        PROFILE,
                                        "true",
                                        Inclusion.FEATURE_SET,
                                        "Bogus"),
                                r))
                .startsWith("unrecognized value \"Bogus\"");
        assertThat(
                        reason(
                                manifest(
                                        "ConfigMap",
                                        "v1",
                                        PROFILE,
                                        "true",
                                        Inclusion.FEATURE_GATE,
                                        "A,-B"),
                                r))
                .isEqualTo("included");
        assertThat(
                        reason(
                                manifest(
                                        "ConfigMap",
                                        "v1",
                                        PROFILE,
                                        "true",
                                        Inclusion.FEATURE_GATE,
                                        "-A"),
                                r))
                .isEqualTo("feature gate A is enabled but manifest requires it to be disabled");
        assertThat(
                        reason(
                                manifest(
                                        "ConfigMap",
                                        "v1",
                                        PROFILE,
                                        "true",
                                        Inclusion.FEATURE_SET,
                                        "Default",
                                        Inclusion.FEATURE_GATE,
                                        "A"),
                                r))
                .startsWith("both feature set and feature gate");
    }

    @Test
    void majorVersionOnlyForCrdsAndFeatureGates() {
        InclusionRules r = InclusionRules.defaults().withMajorVersion(5L);
        String crd = "apiextensions.k8s.io/v1";
        assertThat(
                        reason(
                                manifest(
                                        "CustomResourceDefinition",
                                        crd,
                                        PROFILE,
                                        "true",
                                        Inclusion.MAJOR_VERSION,
                                        "4,5"),
                                r))
                .isEqualTo("included");
        assertThat(
                        reason(
                                manifest(
                                        "CustomResourceDefinition",
                                        crd,
                                        PROFILE,
                                        "true",
                                        Inclusion.MAJOR_VERSION,
                                        "-5"),
                                r))
                .isEqualTo("major version 5 matches excluded version 5");
        assertThat(
                        reason(
                                manifest(
                                        "CustomResourceDefinition",
                                        crd,
                                        PROFILE,
                                        "true",
                                        Inclusion.MAJOR_VERSION,
                                        "5,-5"),
                                r))
                .startsWith("inclusion and exclusion requirements overlap");
        assertThat(
                        reason(
                                manifest(
                                        "ConfigMap",
                                        "v1",
                                        PROFILE,
                                        "true",
                                        Inclusion.MAJOR_VERSION,
                                        "5"),
                                r))
                .startsWith("major version filtering is only supported");
    }

    @Test
    void everyListedCapabilityMustBeEnabled() {
        InclusionRules r =
                InclusionRules.none()
                        .withCapabilities(
                                new Capabilities(Set.of("A", "B", "C"), Set.of("A", "B")));
        assertThat(reason(manifest("ConfigMap", "v1", Manifest.CAPABILITY, "A+B"), r))
                .isEqualTo("included");
        assertThat(reason(manifest("ConfigMap", "v1", Manifest.CAPABILITY, "A+C"), r))
                .isEqualTo("disabled capabilities: C");
        assertThat(reason(manifest("ConfigMap", "v1", Manifest.CAPABILITY, "A+Z"), r))
                .isEqualTo("unrecognized capability names: Z");
    }

    @Test
    void unmanagedOverridesLeaveTheObjectAlone() {
        Manifest m = manifest("Deployment", "apps/v1", PROFILE, "true");
        InclusionRules r =
                InclusionRules.none()
                        .withOverrides(
                                List.of(
                                        new ComponentOverride(
                                                "Deployment", "apps", "ns", "x", true)));
        assertThat(reason(m, r)).startsWith("overridden");
        assertThat(
                        reason(
                                m,
                                InclusionRules.none()
                                        .withOverrides(
                                                List.of(
                                                        new ComponentOverride(
                                                                "Deployment",
                                                                "apps",
                                                                "ns",
                                                                "x",
                                                                false)))))
                .isEqualTo("included");
        assertThat(
                        reason(
                                m,
                                InclusionRules.none()
                                        .withOverrides(
                                                List.of(
                                                        new ComponentOverride(
                                                                "Deployment",
                                                                "apps",
                                                                "other",
                                                                "x",
                                                                true)))))
                .isEqualTo("included");
    }

    @Test
    void createOnlyAndDeleteAreCarriedInTheModel() {
        assertThat(manifest("ConfigMap", "v1", Manifest.CREATE_ONLY, "true").createOnly()).isTrue();
        assertThat(manifest("ConfigMap", "v1", Manifest.DELETE, "true").markedForDeletion())
                .isTrue();
        assertThat(manifest("ConfigMap", "v1", Manifest.DELETE, "false").markedForDeletion())
                .isFalse();
    }
}
