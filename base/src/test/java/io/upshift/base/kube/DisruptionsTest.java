package io.upshift.base.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DisruptionsTest {

    static Pod pod(String name, String app, String phase) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("shop")
                .withLabels(Map.of("app", app))
                .endMetadata()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build();
    }

    static PodDisruptionBudget budget(IntOrString minAvailable, IntOrString maxUnavailable) {
        return new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                .withName("web")
                .withNamespace("shop")
                .endMetadata()
                .withNewSpec()
                .withNewSelector()
                .withMatchLabels(Map.of("app", "web"))
                .endSelector()
                .withMinAvailable(minAvailable)
                .withMaxUnavailable(maxUnavailable)
                .endSpec()
                .build();
    }

    @Test
    void allowedIsHealthyPodsMinusThoseThatMustStay() {
        List<Pod> pods =
                List.of(
                        pod("w1", "web", "Running"),
                        pod("w2", "web", "Running"),
                        pod("w3", "web", "Pending"),
                        pod("db", "db", "Running"));
        assertThat(Disruptions.allowed(budget(new IntOrString(1), null), pods)).isEqualTo(1);
        assertThat(Disruptions.allowed(budget(new IntOrString(2), null), pods)).isZero();
        assertThat(Disruptions.allowed(budget(new IntOrString("50%"), null), pods))
                .isZero(); // ceil(1.5) = 2 must stay
        assertThat(Disruptions.allowed(budget(null, new IntOrString(1)), pods))
                .isZero(); // 3 expected - 1 = 2 must stay
        assertThat(Disruptions.allowed(budget(null, new IntOrString(2)), pods)).isEqualTo(1);
        assertThat(Disruptions.covers(budget(new IntOrString(1), null), pods.get(3))).isFalse();
    }
}
