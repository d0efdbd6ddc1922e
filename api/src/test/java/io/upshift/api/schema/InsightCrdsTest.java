package io.upshift.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.upshift.api.update.insight.InsightKinds;
import io.upshift.api.update.insight.NodeProgressInsight;
import org.junit.jupiter.api.Test;

/** The insight kinds' CRDs: one per kind, named as the kind's resource; what the API server would reject fails. */
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
            assertThat(CrdSchema.bundled(HasMetadata.getFullResourceName(kind), "v1alpha1")).isNotNull();
        }
    }

    @Test
    void aNodeInsightValidates() {
        CrdSchema crd = CrdSchema.bundled("nodeprogressinsights.update.openshift.io", "v1alpha1");
        assertThat(crd.violations(node("10m0s"))).isEmpty();
        assertThat(crd.violations(node("ten minutes"))).anySatisfy(v -> assertThat(v).contains("estToComplete"));
        ObjectNode tree = JSON.valueToTree(node("5m0s"));
        ((ObjectNode) tree.path("status")).put("surprise", 1);
        assertThat(crd.violations(tree)).anySatisfy(v -> assertThat(v).contains("surprise"));
    }
}
