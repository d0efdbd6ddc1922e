package io.upshift.clusterversion.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusConditionBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionTransitionsTest {

    static ClusterOperatorStatusCondition c(String type, String status, String reason) {
        return new ClusterOperatorStatusConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .build();
    }

    @Test
    void aStatusChangeAGoneConditionAndANewOneEachCountOnce() {
        List<ClusterOperatorStatusCondition> before =
                List.of(
                        c("Available", "True", "A"),
                        c("Degraded", "False", "A"),
                        c("Progressing", "True", "A"),
                        c("Degraded", "True", "duplicate, ignored"));
        List<ClusterOperatorStatusCondition> after =
                List.of(
                        c("Available", "True", "B"),
                        c("Degraded", "True", "A"),
                        c("Upgradeable", "False", "A"));
        // a reason alone changing is no transition, as upstream counts
        assertThat(ConditionTransitions.between(before, after))
                .containsExactly("Degraded", "Progressing", "Upgradeable");
        assertThat(ConditionTransitions.between(null, List.of(c("Available", "True", ""))))
                .containsExactly("Available");
        assertThat(ConditionTransitions.between(after, after)).isEmpty();
    }
}
