package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.graph.risk.PromQLSample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A pool's health gates: while one matches, no new node of the pool starts; nodes already updating
 * finish.
 *
 * <ul>
 *   <li>{@value #PODS}: label selectors in kubectl's form, separated by {@code ;}, matched against
 *       the cluster's pods in every namespace, as kured's {@code --blocking-pod-selector}. A pod
 *       matches while it exists and has not finished (not Succeeded or Failed, not terminating).
 *   <li>{@value #ALERTS}: alert selectors ({@link AlertSelector}), separated by {@code ;}: one
 *       matches while Prometheus holds such an alert firing, as kured's alert filter.
 *   <li>{@value #QUERIES}: PromQL expressions, separated by {@code ;} (outside quoted strings): one
 *       matches while it answers a sample whose value is not zero.
 * </ul>
 *
 * Prometheus's gates are asked by the pool controller with the same client and credentials as the
 * conditional update risks; their answers come in as {@link GateReading}s. A gate Prometheus could
 * not answer holds the pool too (fail safe), saying so.
 */
public record HealthGates(List<PodSelector> pods, List<PromQLGate> queries) {
    public static final String PODS = "upshift.io/health-gate-pods";
    public static final String ALERTS = "upshift.io/health-gate-alerts";
    public static final String QUERIES = "upshift.io/health-gate-queries";

    public HealthGates {
        pods = List.copyOf(pods);
        queries = List.copyOf(queries);
    }

    /** Gates on pods only. */
    public HealthGates(List<PodSelector> pods) {
        this(pods, List.of());
    }

    /**
     * What holds the pool and whether a gate fired (rather than could not be asked).
     *
     * @param fired a gate matched: a pod runs, an alert fires, a query answers non-zero; false when
     *     the hold is Prometheus not answering
     */
    public record Verdict(RolloutHold hold, boolean fired) {}

    /**
     * The pool's gates, or null when it has none.
     *
     * @throws IllegalArgumentException naming the annotation and the part that does not parse
     */
    public static HealthGates of(MachineConfigPool pool) {
        Map<String, String> a = pool.getMetadata().getAnnotations();
        if (a == null) return null;
        List<PodSelector> selectors = new ArrayList<>();
        String text = a.get(PODS);
        if (text != null) {
            for (String part : text.split(";")) {
                if (part.isBlank()) continue;
                try {
                    selectors.add(PodSelector.parse(part));
                } catch (IllegalArgumentException e) {
                    throw invalid(PODS, text, "not a label selector: " + e.getMessage());
                }
            }
        }
        List<PromQLGate> queries = new ArrayList<>();
        text = a.get(ALERTS);
        if (text != null) {
            try {
                for (String part : PromQLGate.split(text)) {
                    AlertSelector s = AlertSelector.parse(part);
                    queries.add(new PromQLGate(ALERTS, s.text(), s.promql(), true));
                }
            } catch (IllegalArgumentException e) {
                throw invalid(ALERTS, text, "not an alert selector: " + e.getMessage());
            }
        }
        text = a.get(QUERIES);
        if (text != null) {
            try {
                for (String part : PromQLGate.split(text))
                    queries.add(
                            new PromQLGate(QUERIES, part, PromQLGate.checkExpression(part), false));
            } catch (IllegalArgumentException e) {
                throw invalid(QUERIES, text, "not a PromQL expression: " + e.getMessage());
            }
        }
        if (selectors.isEmpty() && queries.isEmpty()) return null;
        return new HealthGates(selectors, queries);
    }

    /** The queries Prometheus is asked, in the annotations' order, each once. */
    public List<String> promql() {
        return queries.stream().map(PromQLGate::promql).distinct().toList();
    }

    /** What holds the pool now by its pod gates alone; null when none does. */
    public RolloutHold hold(List<Pod> cluster) {
        Verdict v = check(cluster, Map.of(), false);
        return v == null ? null : v.hold();
    }

    /**
     * What holds the pool now: the first pod gate (in the annotation's order) that matches a pod
     * not finished, naming the first such pod; else the first Prometheus gate whose reading has a
     * non-zero sample, naming it; else the first Prometheus gate with no answer (its query failed,
     * or it was not asked). Null when nothing holds it.
     *
     * @param readings each query's reading ({@link #promql()}), absent when it was not asked
     */
    public Verdict check(List<Pod> cluster, Map<String, GateReading> readings) {
        return check(cluster, readings, true);
    }

    private Verdict check(List<Pod> cluster, Map<String, GateReading> readings, boolean asked) {
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
                return fired(
                        "Pod "
                                + p.getMetadata().getNamespace()
                                + "/"
                                + p.getMetadata().getName()
                                + " matches the health gate \""
                                + gate.text()
                                + "\" ("
                                + PODS
                                + "): no new node starts while it runs");
            }
        }
        if (!asked) return null;
        for (PromQLGate gate : queries) {
            if (!(readings.get(gate.promql()) instanceof GateReading.Samples s)) continue;
            for (PromQLSample sample : s.samples()) {
                if (sample.isNonZero()) return fired(firing(gate, sample));
            }
        }
        for (PromQLGate gate : queries) {
            GateReading r = readings.get(gate.promql());
            if (r instanceof GateReading.Failed f)
                return new Verdict(
                        new RolloutHold(
                                RolloutHold.HEALTH_GATE,
                                "Prometheus could not evaluate the health gate \""
                                        + gate.text()
                                        + "\" ("
                                        + gate.annotation()
                                        + "): "
                                        + f.message()
                                        + "; no new node starts until it can",
                                null),
                        false);
            if (r == null)
                return new Verdict(
                        new RolloutHold(
                                RolloutHold.HEALTH_GATE,
                                "The health gate \""
                                        + gate.text()
                                        + "\" ("
                                        + gate.annotation()
                                        + ") has not been evaluated yet",
                                null),
                        false);
        }
        return null;
    }

    private static String firing(PromQLGate gate, PromQLSample sample) {
        Map<String, String> labels = new java.util.TreeMap<>(sample.labels());
        if (gate.alert()) {
            String others =
                    labels.entrySet().stream()
                            .filter(
                                    e ->
                                            !List.of("alertname", "alertstate", "__name__")
                                                    .contains(e.getKey()))
                            .map(e -> e.getKey() + "=\"" + e.getValue() + "\"")
                            .collect(Collectors.joining(","));
            return "Alert "
                    + labels.getOrDefault("alertname", "")
                    + (others.isEmpty() ? "" : "{" + others + "}")
                    + " is firing, which the health gate \""
                    + gate.text()
                    + "\" ("
                    + ALERTS
                    + ") matches: no new node starts while it fires";
        }
        String series =
                labels.entrySet().stream()
                        .map(e -> e.getKey() + "=\"" + e.getValue() + "\"")
                        .collect(Collectors.joining(","));
        return "The health gate \""
                + gate.text()
                + "\" ("
                + QUERIES
                + ") answers "
                + sample.value()
                + (series.isEmpty() ? "" : " for {" + series + "}")
                + ": no new node starts while it answers a value other than 0";
    }

    private static Verdict fired(String message) {
        return new Verdict(new RolloutHold(RolloutHold.HEALTH_GATE, message, null), true);
    }

    private static IllegalArgumentException invalid(String annotation, String text, String why) {
        return new IllegalArgumentException(
                "annotation " + annotation + " \"" + text + "\": " + why);
    }

    private static boolean unfinished(Pod p) {
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return p.getMetadata().getDeletionTimestamp() == null
                && !"Succeeded".equals(phase)
                && !"Failed".equals(phase);
    }
}
