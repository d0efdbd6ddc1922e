package io.upshift.clusterversion.recommend;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.upshift.base.version.SemVer;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecommendationTest {

    @Test
    void aReleaseWithoutAnUrlShowsAnEmptyOneAsOcDoes() {
        ClusterVersion cv =
                new ClusterVersionBuilder()
                        .withNewMetadata()
                        .withName("version")
                        .endMetadata()
                        .withNewSpec()
                        .withClusterID("x")
                        .withChannel("stable-4.18")
                        .endSpec()
                        .withNewStatus()
                        .withNewDesired()
                        .withVersion("4.18.1")
                        .withImage("r@sha256:1")
                        .endDesired()
                        .addNewHistory()
                        .withVersion("4.18.1")
                        .withImage("r@sha256:1")
                        .withState("Completed")
                        .withStartedTime("2026-01-01T00:00:00Z")
                        .withCompletionTime("2026-01-01T01:00:00Z")
                        .withVerified(true)
                        .endHistory()
                        .addNewAvailableUpdate()
                        .withVersion("4.18.2")
                        .withImage("r@sha256:2")
                        .endAvailableUpdate()
                        .addNewConditionalUpdate()
                        .withNewRelease()
                        .withVersion("4.18.2")
                        .withImage("r@sha256:2")
                        .endRelease()
                        .addToConditions(
                                new ConditionBuilder()
                                        .withType("Recommended")
                                        .withStatus("True")
                                        .withReason("AsExpected")
                                        .withMessage("")
                                        .withLastTransitionTime("2026-01-01T00:00:00Z")
                                        .build())
                        .endConditionalUpdate()
                        .endStatus()
                        .build();
        Recommendation.Output out =
                new Recommendation(false, SemVer.parse("4.18.2"), false, Set.of())
                        .render(cv, List.of(), null);
        assertThat(out.out()).contains("Image: r@sha256:2\nRelease URL: \n").doesNotContain("null");
    }
}
