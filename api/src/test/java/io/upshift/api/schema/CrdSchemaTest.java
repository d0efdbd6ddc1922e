package io.upshift.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.upshift.api.update.ControlPlane;
import io.upshift.api.update.HealthInsight;
import io.upshift.api.update.ImpactLevel;
import io.upshift.api.update.Informer;
import io.upshift.api.update.Insight;
import io.upshift.api.update.NodeInsight;
import io.upshift.api.update.ResourceRef;
import io.upshift.api.update.ScopeType;
import io.upshift.api.update.UpdateStatus;
import io.upshift.api.update.UpdateStatusSpec;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.api.update.UpshiftEstimate;
import java.util.List;
import org.junit.jupiter.api.Test;

class CrdSchemaTest {
    private static final CrdSchema SCHEMA =
            CrdSchema.bundled("updatestatuses.update.openshift.io", "v1alpha1");
    private static final ObjectMapper JSON = new ObjectMapper();

    static UpdateStatus withInsight(Insight insight) {
        UpdateStatus us = new UpdateStatus();
        us.setMetadata(new ObjectMetaBuilder().withName("cluster").build());
        us.setSpec(new UpdateStatusSpec());
        us.setStatus(
                new UpdateStatusStatus(
                        null,
                        new ControlPlane(
                                null,
                                ResourceRef.of("config.openshift.io", "clusterversions", "version"),
                                null,
                                List.of(new Informer("health", List.of(insight)))),
                        null));
        return us;
    }

    static Insight node(String uid, String est) {
        return Insight.of(
                uid,
                "2026-11-20T10:00:00.123456789Z",
                new NodeInsight(
                        List.of(
                                new ConditionBuilder()
                                        .withType("Updating")
                                        .withStatus("True")
                                        .withReason("Draining")
                                        .withMessage("")
                                        .withLastTransitionTime("2026-11-20T10:00:00Z")
                                        .build()),
                        "n1",
                        new ResourceRef(null, "nodes", "n1", null),
                        ResourceRef.of(
                                "machineconfiguration.openshift.io",
                                "machineconfigpools",
                                "worker"),
                        ScopeType.WorkerPool,
                        "4.17.2",
                        est,
                        null,
                        new UpshiftEstimate(
                                "2026-11-20T10:04:10.250Z",
                                "waiting for its turn, at the pool's measured node time")));
    }

    @Test
    void acceptsAWellFormedStatus() {
        assertThat(SCHEMA.violations(withInsight(node("node-n1", "10m0s")))).isEmpty();
        Insight health =
                Insight.of(
                        "health-x",
                        "2026-11-20T10:00:00Z",
                        new HealthInsight(
                                null,
                                new HealthInsight.Scope(
                                        ScopeType.Cluster,
                                        List.of(
                                                new ResourceRef(
                                                        "config.openshift.io",
                                                        "alerts",
                                                        "A",
                                                        "ns"))),
                                new HealthInsight.Impact(
                                        ImpactLevel.Warning, "API Availability", "s", "d"),
                                new HealthInsight.Remediation("https://example.com", null)));
        assertThat(SCHEMA.violations(withInsight(health))).isEmpty();
    }

    @Test
    void rejectsAnInvalidUidAndDuration() {
        assertThat(SCHEMA.violations(withInsight(node("Node_N1", "ten minutes"))))
                .anySatisfy(v -> assertThat(v).contains("uid"))
                .anySatisfy(v -> assertThat(v).contains("estToComplete"));
    }

    @Test
    void rejectsFieldsTheApiServerWouldDrop() {
        ObjectNode tree = JSON.valueToTree(withInsight(node("node-n1", "5m0s")));
        ((ObjectNode) tree.path("status").path("controlPlane")).put("surprise", 1);
        assertThat(SCHEMA.violations(tree)).anySatisfy(v -> assertThat(v).contains("surprise"));
    }
}
