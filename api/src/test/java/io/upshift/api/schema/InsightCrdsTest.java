package io.upshift.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.upshift.api.update.ClusterVersionInsight;
import io.upshift.api.update.PoolInsight;
import io.upshift.api.update.ResourceRef;
import io.upshift.api.update.ScopeType;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.api.update.insight.ClusterVersionProgressInsight;
import io.upshift.api.update.insight.InsightKinds;
import io.upshift.api.update.insight.MachineConfigPoolProgressInsight;
import io.upshift.api.update.insight.NodeProgressInsight;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The insight kinds' CRDs: one per kind, named as the kind's resource; what the API server would
 * reject fails.
 */
class InsightCrdsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static NodeProgressInsight node(String est) {
        NodeProgressInsight o = new NodeProgressInsight();
        o.setMetadata(new ObjectMetaBuilder().withName("n1").build());
        o.setStatus(CrdSchemaTest.node("node-n1", est).node());
        return o;
    }

    @Test
    void everyKindHasItsCrd() {
        for (Class<? extends HasMetadata> kind : InsightKinds.ALL) {
            assertThat(CrdSchema.bundled(HasMetadata.getFullResourceName(kind), "v1alpha1"))
                    .isNotNull();
        }
    }

    @Test
    void aNodeInsightValidates() {
        CrdSchema crd = CrdSchema.bundled("nodeprogressinsights.update.openshift.io", "v1alpha1");
        assertThat(crd.violations(node("10m0s"))).isEmpty();
        assertThat(crd.violations(node("ten minutes")))
                .anySatisfy(v -> assertThat(v).contains("estToComplete"));
        ObjectNode tree = JSON.valueToTree(node("5m0s"));
        ((ObjectNode) tree.path("status")).put("surprise", 1);
        assertThat(crd.violations(tree)).anySatisfy(v -> assertThat(v).contains("surprise"));
    }

    @Test
    void upshiftEstimatesValidateOnEveryKindThatCarriesThem() {
        UpshiftEstimate estimate =
                new UpshiftEstimate(
                        "2026-11-20T10:04:10.250Z",
                        "6 of 11 run-levels left, at the mean of the 5 run-levels done in this"
                                + " update (2.3 s)");
        UpshiftEstimate unknown = new UpshiftEstimate(null, "no node update measured yet");
        ClusterVersionProgressInsight cv = new ClusterVersionProgressInsight();
        cv.setMetadata(new ObjectMetaBuilder().withName("version").build());
        cv.setStatus(
                new ClusterVersionInsight(
                        null,
                        ResourceRef.of("config.openshift.io", "clusterversions", "version"),
                        "Progressing",
                        null,
                        40,
                        "2026-11-20T10:00:00Z",
                        null,
                        "2026-11-20T11:00:00Z",
                        estimate));
        assertThat(
                        CrdSchema.bundled(
                                        "clusterversionprogressinsights.update.openshift.io",
                                        "v1alpha1")
                                .violations(cv))
                .isEmpty();
        MachineConfigPoolProgressInsight pool = new MachineConfigPoolProgressInsight();
        pool.setMetadata(new ObjectMetaBuilder().withName("worker").build());
        pool.setStatus(
                new PoolInsight(
                        null,
                        "worker",
                        ResourceRef.of(
                                "machineconfiguration.openshift.io",
                                "machineconfigpools",
                                "worker"),
                        ScopeType.WorkerPool,
                        "Progressing",
                        50,
                        List.of(new PoolInsight.Summary("Total", 6)),
                        unknown));
        CrdSchema pools =
                CrdSchema.bundled(
                        "machineconfigpoolprogressinsights.update.openshift.io", "v1alpha1");
        assertThat(pools.violations(pool)).isEmpty();
        pool.setStatus(
                new PoolInsight(
                        null,
                        "worker",
                        ResourceRef.of(
                                "machineconfiguration.openshift.io",
                                "machineconfigpools",
                                "worker"),
                        ScopeType.WorkerPool,
                        "Progressing",
                        50,
                        List.of(),
                        new UpshiftEstimate("soon", null)));
        assertThat(pools.violations(pool))
                .anySatisfy(v -> assertThat(v).contains("upshiftEstimate"));
        assertThat(
                        CrdSchema.bundled("nodeprogressinsights.update.openshift.io", "v1alpha1")
                                .violations(node("1m0s")))
                .isEmpty();
    }
}
