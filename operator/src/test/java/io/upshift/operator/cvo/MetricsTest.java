package io.upshift.operator.cvo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsTest {

    @Test
    void exportsVersionsUpdatesAndOperators() {
        ClusterVersion cv = new ClusterVersionBuilder().withNewMetadata().withName("version").endMetadata()
                .withNewSpec().withClusterID("x").withChannel("stable-4.18").withUpstream("https://updates.example/graph").endSpec()
                .withNewStatus().withNewDesired().withVersion("4.18.2").withImage("img-2").endDesired()
                .addNewHistory().withState("Partial").withVersion("4.18.2").withImage("img-2").withStartedTime("2026-11-22T01:00:00Z").endHistory()
                .addNewHistory().withState("Completed").withVersion("4.18.1").withImage("img-1").withStartedTime("2026-11-21T01:00:00Z")
                .withCompletionTime("2026-11-21T01:30:00Z").endHistory()
                .addNewAvailableUpdate().withVersion("4.18.3").withImage("img-3").endAvailableUpdate().endStatus().build();
        ClusterOperator etcd = new ClusterOperatorBuilder().withNewMetadata().withName("etcd").endMetadata().withNewStatus()
                .addNewCondition().withType("Available").withStatus("True").withReason("AsExpected").endCondition()
                .addNewCondition().withType("Degraded").withStatus("False").withReason("AsExpected").endCondition()
                .addNewVersion().withName("operator").withVersion("4.18.1").endVersion().endStatus().build();
        String text = Metrics.render(cv, List.of(etcd), 96);
        assertThat(text)
                .contains("cluster_version{type=\"desired\",version=\"4.18.2\",image=\"img-2\",from_version=\"4.18.1\"} 1795309200\n")
                .contains("cluster_version{type=\"completed\",version=\"4.18.1\",image=\"img-1\",from_version=\"\"} 1795224600\n")
                .contains("cluster_version{type=\"updating\",version=\"4.18.2\",image=\"img-2\",from_version=\"4.18.1\"} 1795309200\n")
                .contains("cluster_version_available_updates{upstream=\"https://updates.example/graph\",channel=\"stable-4.18\"} 1\n")
                .contains("cluster_version_payload{version=\"4.18.2\",type=\"applied\"} 96\n")
                .contains("cluster_operator_up{name=\"etcd\",version=\"4.18.1\",reason=\"AsExpected\"} 1\n")
                .contains("cluster_operator_conditions{name=\"etcd\",condition=\"Degraded\",reason=\"AsExpected\"} 0\n")
                .contains("# TYPE cluster_operator_up gauge\n");
        cv.getSpec().setUpstream(null);
        assertThat(Metrics.render(cv, List.of(etcd), 96)).contains("cluster_version_available_updates{upstream=\"<default>\",channel=\"stable-4.18\"} 1\n");
    }
}
