package io.upshift.status.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.upshift.api.json.Mappers;
import io.upshift.api.schema.CrdSchema;
import io.upshift.api.update.InsightObjects;
import io.upshift.api.update.UpdateStatus;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.status.render.Details;
import io.upshift.status.render.StatusRenderer;
import io.upshift.status.synthetic.SyntheticCluster;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class StatusObjectsTest {
    private static final Instant NOW = Instant.parse("2026-11-20T10:00:00Z");

    /** What this work aims the summary at: a sixth of the 1.5 MiB etcd accepts for one object. */
    private static final int SUMMARY_LIMIT = 262_144;

    /**
     * A mid-update cluster's status as the controller writes it (settled: every condition has its
     * transition time).
     */
    private static UpdateStatusStatus assess(int nodes, int pools, int operators) {
        UpdateStatusStatus assessed =
                UpdateAssessment.assess(
                        new SyntheticCluster(nodes, pools, operators, 1.0, NOW).state(), NOW, NOW);
        return InsightHistory.settle(List.of(), assessed, NOW);
    }

    @Test
    void theSummaryAndTheObjectsJoinIntoTheStatusThatWasSplit() {
        UpdateStatusStatus full = assess(300, 3, 20);
        assertThat(UpdateAssessment.health(full)).as("health insights in the example").isNotEmpty();
        StatusObjects.Split split = StatusObjects.split(full);
        List<HasMetadata> objects = new ArrayList<>(split.objects());
        Collections.shuffle(
                objects, new Random(7)); // as the API lists them: in no order the text needs

        UpdateStatusStatus joined = StatusObjects.join(split.summary(), objects);
        assertThat(joined).isEqualTo(full);
        assertThat(StatusRenderer.render(joined, NOW, Details.all))
                .isEqualTo(StatusRenderer.render(full, NOW, Details.all));
    }

    @Test
    void oneObjectPerInsightNamedAfterItsSubject() {
        UpdateStatusStatus full = assess(30, 2, 5);
        StatusObjects.Split split = StatusObjects.split(full);
        assertThat(split.objects()).hasSize(full.insights().size());
        assertThat(split.summary().insightObjects())
                .extracting(InsightObjects::resource, InsightObjects::count)
                .containsExactly(
                        Tuple.tuple("clusterversionprogressinsights", 1),
                        Tuple.tuple("clusteroperatorprogressinsights", 5),
                        Tuple.tuple("machineconfigpoolprogressinsights", 3),
                        Tuple.tuple("nodeprogressinsights", 33),
                        Tuple.tuple("healthinsights", UpdateAssessment.health(full).size()));
        assertThat(split.objects())
                .extracting(o -> o.getMetadata().getName())
                .contains("version", "operator-00", "worker", "master-0");
        // the summary keeps the ClusterVersion and the pools, and lists nodes by count alone
        assertThat(split.summary().insights()).hasSize(1 + 3);
        assertThat(split.summary().insightObjects().get(3).names()).isEmpty();
    }

    @Test
    void everyObjectAndTheSummaryValidateAgainstTheirCrds() {
        StatusObjects.Split split = StatusObjects.split(assess(300, 3, 20));
        for (HasMetadata o : split.objects()) {
            CrdSchema crd =
                    CrdSchema.bundled(HasMetadata.getFullResourceName(o.getClass()), "v1alpha1");
            assertThat(crd.violations(o))
                    .as(o.getKind() + " " + o.getMetadata().getName())
                    .isEmpty();
        }
        assertThat(
                        CrdSchema.bundled("updatestatuses.update.openshift.io", "v1alpha1")
                                .violations(updateStatus(split.summary())))
                .isEmpty();
    }

    @Test
    void theSummaryOfTenThousandNodesStaysFarBelowTheObjectLimit() throws JsonProcessingException {
        UpdateStatusStatus full = assess(10_000, 20, 60);
        StatusObjects.Split split = StatusObjects.split(full);

        int summary = Mappers.JSON.writeValueAsBytes(updateStatus(split.summary())).length;
        int largest = 0;
        for (HasMetadata o : split.objects()) {
            largest = Math.max(largest, Mappers.JSON.writeValueAsBytes(o).length);
        }
        int whole = Mappers.JSON.writeValueAsBytes(updateStatus(full)).length;
        System.out.printf(
                "10,000 nodes: summary %d bytes, largest insight object %d bytes, %d objects; all"
                        + " in one status: %d bytes%n",
                summary, largest, split.objects().size(), whole);
        assertThat(summary).isLessThanOrEqualTo(SUMMARY_LIMIT);
        assertThat(largest).isLessThanOrEqualTo(SUMMARY_LIMIT);
        assertThat(whole).as("what one object would hold").isGreaterThan(1_572_864);
    }

    private static UpdateStatus updateStatus(UpdateStatusStatus status) {
        UpdateStatus us = new UpdateStatus();
        us.setMetadata(new ObjectMetaBuilder().withName(UpdateStatus.NAME).build());
        us.setStatus(status);
        return us;
    }
}
