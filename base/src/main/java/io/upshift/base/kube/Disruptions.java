package io.upshift.base.kube;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import java.util.Map;

/**
 * How many of a PodDisruptionBudget's pods may be evicted now, as the disruption controller counts
 * it: healthy pods (running and Ready) minus the pods that must stay (minAvailable, or the matching
 * pods minus maxUnavailable).
 */
public final class Disruptions {

    private Disruptions() {}

    public static boolean covers(PodDisruptionBudget pdb, Pod pod) {
        if (!pdb.getMetadata().getNamespace().equals(pod.getMetadata().getNamespace()))
            return false;
        if (pdb.getSpec() == null || pdb.getSpec().getSelector() == null) return false;
        Map<String, String> labels =
                pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        return LabelSelectors.matches(pdb.getSpec().getSelector(), labels);
    }

    /**
     * @param pods every pod of the budget's namespace
     */
    public static int allowed(PodDisruptionBudget pdb, List<Pod> pods) {
        List<Pod> matching = pods.stream().filter(p -> covers(pdb, p)).toList();
        int expected = matching.size();
        int healthy = (int) matching.stream().filter(Disruptions::healthy).count();
        int mustStay;
        if (pdb.getSpec().getMinAvailable() != null) {
            mustStay = scaled(pdb.getSpec().getMinAvailable(), expected);
        } else if (pdb.getSpec().getMaxUnavailable() != null) {
            mustStay = expected - scaled(pdb.getSpec().getMaxUnavailable(), expected);
        } else {
            mustStay = 0;
        }
        return Math.max(0, healthy - mustStay);
    }

    static boolean healthy(Pod pod) {
        if (pod.getMetadata().getDeletionTimestamp() != null) return false;
        if (pod.getStatus() == null) return false;
        if (!"Running".equals(pod.getStatus().getPhase())) return false;
        List<PodCondition> conditions = pod.getStatus().getConditions();
        return conditions == null
                || conditions.stream()
                        .noneMatch(
                                c -> "Ready".equals(c.getType()) && !"True".equals(c.getStatus()));
    }

    /** An int, or a percentage of the expected pods, rounded up as Kubernetes does for budgets. */
    private static int scaled(IntOrString value, int expected) {
        if (value.getIntVal() != null) return value.getIntVal();
        String s = value.getStrVal().strip();
        int percent = Integer.parseInt(s.endsWith("%") ? s.substring(0, s.length() - 1) : s);
        return (int) Math.ceil(expected * percent / 100.0);
    }
}
