package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A pool's health gates on pods, from its {@code upshift.io/health-gate-pods} annotation: label
 * selectors in kubectl's form, separated by {@code ;}, matched against the cluster's pods in every
 * namespace, as kured's {@code --blocking-pod-selector}. While a pod that one of them matches
 * exists and has not finished (not Succeeded or Failed, not terminating), no new node of the pool
 * starts; nodes already updating finish.
 */
public record HealthGates(List<PodSelector> pods) {
    public static final String PODS = "upshift.io/health-gate-pods";

    /**
     * The pool's gates, or null when it has none.
     *
     * @throws IllegalArgumentException naming the annotation and the selector that does not parse
     */
    public static HealthGates of(MachineConfigPool pool) {
        Map<String, String> a = pool.getMetadata().getAnnotations();
        String text = a == null ? null : a.get(PODS);
        if (text == null || text.isBlank()) return null;
        List<PodSelector> selectors = new ArrayList<>();
        for (String part : text.split(";")) {
            if (part.isBlank()) continue;
            try {
                selectors.add(PodSelector.parse(part));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "annotation "
                                + PODS
                                + " \""
                                + text
                                + "\": not a label selector: "
                                + e.getMessage());
            }
        }
        return new HealthGates(List.copyOf(selectors));
    }

    /**
     * What holds the pool now: the first gate (in the annotation's order) that matches a pod not
     * finished, naming the first such pod by namespace and name; null when none does.
     */
    public RolloutHold hold(List<Pod> cluster) {
        List<Pod> live =
                cluster.stream()
                        .filter(HealthGates::unfinished)
                        .sorted(
                                Comparator.comparing((Pod p) -> p.getMetadata().getNamespace())
                                        .thenComparing(p -> p.getMetadata().getName()))
                        .toList();
        for (PodSelector gate : pods) {
            for (Pod p : live) {
                if (!gate.matches(p.getMetadata().getLabels())) continue;
                return new RolloutHold(
                        RolloutHold.HEALTH_GATE,
                        "Pod "
                                + p.getMetadata().getNamespace()
                                + "/"
                                + p.getMetadata().getName()
                                + " matches the health gate \""
                                + gate.text()
                                + "\" ("
                                + PODS
                                + "): no new node starts while it runs",
                        null);
            }
        }
        return null;
    }

    private static boolean unfinished(Pod p) {
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return p.getMetadata().getDeletionTimestamp() == null
                && !"Succeeded".equals(phase)
                && !"Failed".equals(phase);
    }
}
