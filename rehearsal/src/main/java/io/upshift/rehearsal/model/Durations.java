package io.upshift.rehearsal.model;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.PoolMembers;
import io.upshift.status.estimate.NodeTime;
import io.upshift.status.estimate.RunLevelTimes;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How long each run-level of the target and each node of each pool would take, as the cluster
 * taught it, else by default; each figure says where it comes from. Run-levels: the durations the
 * cluster-version controller recorded for the last update timed to its end ({@link RunLevelTimes}),
 * a run-level that update did not have taking the mean of those of its kind (with ClusterOperators
 * or without); else the last completed update's length from history, else an hour (both as {@code
 * oc adm upgrade status} takes its baseline), shared among the run-levels with ClusterOperators, a
 * run-level without taking {@link #PLAIN_RUN_LEVEL}. Nodes: the mean of what the pool's nodes took
 * in their last update (the agent's {@code upshift.io/update-*-at} annotations), else of all nodes,
 * else {@link #DEFAULT_NODE}.
 *
 * @param runLevels each run-level of the target, in order, and its duration
 * @param runLevelBasis where those come from, in a few words
 * @param learnedRunLevels whether they were learned from this cluster (else defaults)
 * @param nodes each pool's per-node time
 * @param nodeBasis where those come from
 * @param learnedNodes whether they were learned from this cluster
 */
public record Durations(
        Map<String, Duration> runLevels,
        String runLevelBasis,
        boolean learnedRunLevels,
        Map<String, Duration> nodes,
        String nodeBasis,
        boolean learnedNodes) {

    /** oc's baseline for a control plane update when history has none: an hour. */
    public static final Duration DEFAULT_CONTROL_PLANE = Duration.ofHours(1);

    /** A run-level without ClusterOperators, when nothing was learned: manifests applied. */
    public static final Duration PLAIN_RUN_LEVEL = Duration.ofSeconds(10);

    /** A node's update (drain, config, reboot) when no node update was measured. */
    public static final Duration DEFAULT_NODE = Duration.ofMinutes(10);

    public Durations {
        runLevels = Collections.unmodifiableMap(new LinkedHashMap<>(runLevels));
        nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
    }

    /** The durations for the run-levels {@code levels} of the target, on this cluster. */
    public static Durations learn(ClusterFacts facts, List<RunLevelTimes.Level> levels) {
        Map<String, Duration> runLevels = new LinkedHashMap<>();
        String runLevelBasis;
        boolean learned;
        ClusterVersion cv = facts.clusterVersion();
        RunLevelTimes times = RunLevelTimes.of(cv);
        RunLevelTimes.Previous last = times == null ? null : times.lastTimed();
        if (last != null && !last.seconds().isEmpty()) {
            learned = true;
            Map<String, List<RunLevelTimes.Level>> kinds = byKind(times.levels());
            for (RunLevelTimes.Level l : levels) {
                Double s = last.seconds().get(l.runLevel());
                runLevels.put(
                        l.runLevel(),
                        s != null ? seconds(s) : meanOfKind(l, last.seconds(), kinds));
            }
            runLevelBasis =
                    "learned: the run-level times of the update to "
                            + last.version()
                            + " ("
                            + last.seconds().size()
                            + " run-levels timed)";
        } else {
            Duration lastUpdate = lastUpdate(cv);
            learned = lastUpdate != null;
            Duration whole = learned ? lastUpdate : DEFAULT_CONTROL_PLANE;
            long withOperators = levels.stream().filter(l -> !l.operators().isEmpty()).count();
            Duration plain = PLAIN_RUN_LEVEL;
            Duration shared =
                    withOperators == 0
                            ? null
                            : max(
                                    Duration.ofSeconds(1),
                                    whole.minus(plain.multipliedBy(levels.size() - withOperators))
                                            .dividedBy(withOperators)
                                            .truncatedTo(ChronoUnit.MILLIS));
            for (RunLevelTimes.Level l : levels)
                runLevels.put(
                        l.runLevel(), l.operators().isEmpty() || shared == null ? plain : shared);
            runLevelBasis =
                    (learned
                                    ? "learned: the last update took "
                                            + format(whole)
                                            + " (its history entry)"
                                    : "default: "
                                            + format(whole)
                                            + ", oc adm upgrade status's baseline")
                            + ", shared among the run-levels with ClusterOperators; "
                            + format(plain)
                            + " for each without";
        }
        Map<String, Duration> nodes = new LinkedHashMap<>();
        List<Duration> all = new ArrayList<>();
        Map<String, List<Node>> members =
                PoolMembers.assign(facts.state().pools(), facts.state().nodes());
        Map<String, NodeTime> perPool = new LinkedHashMap<>();
        for (MachineConfigPool pool : facts.state().pools()) {
            List<Duration> measured = new ArrayList<>();
            for (Node n : members.get(pool.getMetadata().getName())) measured(n, measured);
            all.addAll(measured);
            perPool.put(pool.getMetadata().getName(), NodeTime.of(List.of(), measured));
        }
        NodeTime overall = NodeTime.of(List.of(), all);
        boolean learnedNodes = overall.perNode() != null;
        perPool.forEach(
                (pool, t) ->
                        nodes.put(
                                pool,
                                t.perNode() != null
                                        ? t.perNode()
                                        : overall.perNode() != null
                                                ? overall.perNode()
                                                : DEFAULT_NODE));
        String nodeBasis =
                learnedNodes
                        ? "learned: the "
                                + overall.basis()
                                + " (the agents' update-started/done annotations)"
                        : "default: " + format(DEFAULT_NODE) + " a node (no node update measured)";
        return new Durations(runLevels, runLevelBasis, learned, nodes, nodeBasis, learnedNodes);
    }

    /** These durations with each run-level and node time replaced as given (a demo's own). */
    public Durations with(
            Map<String, Duration> runLevels,
            String runLevelBasis,
            Duration perNode,
            String nodeBasis) {
        Map<String, Duration> n = new LinkedHashMap<>();
        nodes.keySet().forEach(p -> n.put(p, perNode));
        return new Durations(runLevels, runLevelBasis, false, n, nodeBasis, false);
    }

    /** The control plane's run-levels end to end (without waiting for pools). */
    public Duration controlPlane() {
        return runLevels.values().stream().reduce(Duration.ZERO, Duration::plus);
    }

    private static Map<String, List<RunLevelTimes.Level>> byKind(List<RunLevelTimes.Level> ls) {
        Map<String, List<RunLevelTimes.Level>> out = new LinkedHashMap<>();
        for (RunLevelTimes.Level l : ls)
            out.computeIfAbsent(kind(l), k -> new ArrayList<>()).add(l);
        return out;
    }

    private static String kind(RunLevelTimes.Level l) {
        return l.operators().isEmpty() ? "plain" : "operators";
    }

    /** The mean of the learned run-levels of the same kind, else of all learned ones. */
    private static Duration meanOfKind(
            RunLevelTimes.Level l,
            Map<String, Double> seconds,
            Map<String, List<RunLevelTimes.Level>> kinds) {
        List<Double> same = new ArrayList<>();
        for (RunLevelTimes.Level k : kinds.getOrDefault(kind(l), List.of())) {
            Double s = seconds.get(k.runLevel());
            if (s != null) same.add(s);
        }
        List<Double> pick = same.isEmpty() ? new ArrayList<>(seconds.values()) : same;
        return seconds(pick.stream().mapToDouble(Double::doubleValue).average().orElse(0));
    }

    /**
     * How long the last completed update took, from its history entry; null when history holds none
     * but the install.
     */
    static Duration lastUpdate(ClusterVersion cv) {
        List<UpdateHistory> history =
                cv.getStatus() == null || cv.getStatus().getHistory() == null
                        ? List.of()
                        : cv.getStatus().getHistory();
        for (int i = 0; i < history.size() - 1; i++) {
            UpdateHistory h = history.get(i);
            if (!"Completed".equals(h.getState())) continue;
            Instant start = instant(h.getStartedTime()), end = instant(h.getCompletionTime());
            if (start != null && end != null && end.isAfter(start))
                return Duration.between(start, end);
        }
        return null;
    }

    private static void measured(Node n, List<Duration> out) {
        Map<String, String> a = n.getMetadata().getAnnotations();
        if (a == null) return;
        Instant started = instant(a.get(NodeAnnotations.UPDATE_STARTED_AT));
        Instant done = instant(a.get(NodeAnnotations.UPDATE_DONE_AT));
        if (started != null && done != null && !done.isBefore(started))
            out.add(Duration.between(started, done));
    }

    private static Instant instant(String s) {
        if (s == null || s.isEmpty()) return null;
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Duration seconds(double s) {
        return Duration.ofMillis(Math.round(s * 1000));
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** "2.4 s", "95 s", "12.5 min", "1.2 h". */
    public static String format(Duration d) {
        double s = d.toMillis() / 1000.0;
        if (s >= 5400) return String.format(Locale.ROOT, "%.1f h", s / 3600);
        if (s >= 600) return String.format(Locale.ROOT, "%.1f min", s / 60);
        return s >= 100
                ? String.format(Locale.ROOT, "%.0f s", s)
                : String.format(Locale.ROOT, "%.1f s", s);
    }
}
