package io.upshift.rehearsal.model;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.pools.model.MaxUnavailable;
import io.upshift.pools.model.NodeSelection;
import io.upshift.pools.model.PoolMembers;
import io.upshift.pools.model.PoolNode;
import io.upshift.status.estimate.ControlPlaneEstimate;
import io.upshift.status.estimate.RunLevelTimes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The timeline worked out from the durations alone, as the update's controllers would order the
 * work: run-levels one after another; the pools start with the machine-config run-level (its
 * MachineConfigs are applied then and rendered at once), which ends only once the control-plane
 * pool has rolled out too; each pool's nodes picked as the pool controller picks them ({@link
 * NodeSelection}: maxUnavailable at a time, by zone then age, nodes not ready never picked and
 * counted as unavailable), each taking the pool's node time. A run-level whose operator stalls, or
 * a node held by a stall (a budget refusing its drain, no agent, degraded), never ends. When the
 * target's run-levels are not known the pools start once the control plane is done, as OpenShift's
 * machine-config operator comes last.
 */
public final class TimelinePlan {
    /** The config the plan tells nodes: the pools' next rendered config. */
    private static final String NEXT = "(next rendered config)";

    private TimelinePlan() {}

    public static Timeline of(
            ClusterFacts facts, Target target, Durations durations, List<Blocker> stalls) {
        Map<String, String> stalledLevels = new LinkedHashMap<>();
        Map<String, Set<String>> stalledNodes = new LinkedHashMap<>();
        for (Blocker b : stalls) {
            if (b.kind() != Blocker.Kind.STALLS) continue;
            if (!b.place().runLevel().isEmpty())
                stalledLevels.putIfAbsent(b.place().runLevel(), b.message());
            if (!b.place().nodes().isEmpty())
                stalledNodes
                        .computeIfAbsent(b.place().pool(), p -> new HashSet<>())
                        .addAll(b.place().nodes());
        }
        String machineConfig = target.runLevelOf(ControlPlaneEstimate.MACHINE_CONFIG);
        boolean rolls = Stalls.rollsNodes(target);

        List<Timeline.Bar> levels = new ArrayList<>();
        Duration t = Duration.ZERO;
        List<Timeline.Pool> pools = null;
        boolean stalled = false;
        for (RunLevelTimes.Level l : target.levels()) {
            Duration d = durations.runLevels().getOrDefault(l.runLevel(), Duration.ZERO);
            if (stalledLevels.containsKey(l.runLevel())) {
                levels.add(
                        new Timeline.Bar(
                                l.runLevel(),
                                t,
                                null,
                                "stalls: " + stalledLevels.get(l.runLevel())));
                stalled = true;
                break;
            }
            Duration end = t.plus(d);
            String note = operators(l);
            if (l.runLevel().equals(machineConfig)) {
                pools = pools(facts, durations, t, stalledNodes);
                Timeline.Pool master = find(pools, "master");
                if (master != null && master.start() != null) {
                    if (master.end() == null) {
                        levels.add(
                                new Timeline.Bar(
                                        l.runLevel(),
                                        t,
                                        null,
                                        "waits for the control-plane pool, which stalls"));
                        stalled = true;
                        break;
                    }
                    if (master.end().compareTo(end) > 0) {
                        end = master.end();
                        note = note + (note.isEmpty() ? "" : "; ") + "waits for the master pool";
                    }
                }
            }
            levels.add(new Timeline.Bar(l.runLevel(), t, end, note));
            t = end;
        }
        Duration controlPlaneEnd = stalled ? null : t;
        if (pools == null) {
            if (rolls && !stalled) {
                pools = pools(facts, durations, t, stalledNodes);
            } else {
                pools = notRolled(facts, rolls ? "the control plane stalls first" : null);
            }
        }
        Duration end = controlPlaneEnd;
        for (Timeline.Pool p : pools) {
            if (p.start() == null) continue; // paused, or not rolled
            if (p.end() == null) end = null;
            else if (end != null && p.end().compareTo(end) > 0) end = p.end();
        }
        return new Timeline(
                levels,
                pools,
                controlPlaneEnd,
                end,
                "planned: run-levels "
                        + durations.runLevelBasis()
                        + "; nodes "
                        + durations.nodeBasis());
    }

    private static String operators(RunLevelTimes.Level l) {
        return l.operators().isEmpty() ? "" : String.join(", ", l.operators());
    }

    private static Timeline.Pool find(List<Timeline.Pool> pools, String name) {
        return pools.stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
    }

    /** Pools that do not roll in this update, each saying why. */
    private static List<Timeline.Pool> notRolled(ClusterFacts facts, String why) {
        List<Timeline.Pool> out = new ArrayList<>();
        for (MachineConfigPool p : facts.state().pools())
            out.add(
                    new Timeline.Pool(
                            p.getMetadata().getName(),
                            members(facts, p),
                            0,
                            null,
                            null,
                            List.of(),
                            why != null
                                    ? "not reached: " + why
                                    : "not rolled: the target's payload has no machine-config"
                                            + " operator"));
        return out;
    }

    private static List<Timeline.Pool> pools(
            ClusterFacts facts,
            Durations durations,
            Duration start,
            Map<String, Set<String>> stalledNodes) {
        Map<String, List<Node>> members =
                PoolMembers.assign(facts.state().pools(), facts.state().nodes());
        List<Timeline.Pool> out = new ArrayList<>();
        for (MachineConfigPool pool : facts.state().pools()) {
            String name = pool.getMetadata().getName();
            List<Node> nodes = members.get(name);
            int lanes = lanes(pool, nodes.size());
            if (pool.getSpec() != null && Boolean.TRUE.equals(pool.getSpec().getPaused())) {
                out.add(
                        new Timeline.Pool(
                                name,
                                nodes.size(),
                                lanes,
                                null,
                                null,
                                List.of(),
                                "paused: its nodes stay on their current config"));
                continue;
            }
            if (nodes.isEmpty()) {
                out.add(new Timeline.Pool(name, 0, lanes, start, start, List.of(), "no nodes"));
                continue;
            }
            out.add(
                    rollout(
                            name,
                            nodes,
                            lanes,
                            durations.nodes().getOrDefault(name, Durations.DEFAULT_NODE),
                            start,
                            stalledNodes.getOrDefault(name, Set.of())));
        }
        return out;
    }

    /**
     * One pool's rollout, event by event: at each moment a node is done, the pool controller's own
     * choice of the next nodes.
     */
    private static Timeline.Pool rollout(
            String pool,
            List<Node> nodes,
            int lanes,
            Duration perNode,
            Duration start,
            Set<String> stalled) {
        List<PoolNode> views = new ArrayList<>();
        for (Node n : nodes) views.add(PoolMembers.view(n, ""));
        Map<String, Duration> started = new LinkedHashMap<>();
        Map<String, Duration> ends = new LinkedHashMap<>();
        Duration t = start;
        while (true) {
            for (PoolNode picked : NodeSelection.pick(views, NEXT, lanes, false)) {
                replace(views, picked.told(NEXT));
                started.put(picked.name(), t);
                if (!stalled.contains(picked.name())) ends.put(picked.name(), t.plus(perNode));
            }
            Duration next = null;
            for (Map.Entry<String, Duration> e : ends.entrySet()) {
                PoolNode v = view(views, e.getKey());
                if (v.done()) continue;
                if (next == null || e.getValue().compareTo(next) < 0) next = e.getValue();
            }
            if (next == null) break;
            t = next;
            for (Map.Entry<String, Duration> e : ends.entrySet()) {
                PoolNode v = view(views, e.getKey());
                if (!v.done() && e.getValue().equals(t)) replace(views, done(v));
            }
        }
        List<Timeline.Bar> bars = new ArrayList<>();
        started.forEach(
                (node, s) ->
                        bars.add(
                                new Timeline.Bar(
                                        node,
                                        s,
                                        ends.get(node),
                                        stalled.contains(node) ? "stalls" : "")));
        boolean finished = ends.size() == nodes.size();
        int notReached = nodes.size() - started.size();
        Duration end =
                finished ? ends.values().stream().max(Duration::compareTo).orElse(start) : null;
        String note = notReached == 0 ? "" : Stalls.count(notReached, "node") + " never picked";
        return new Timeline.Pool(pool, nodes.size(), lanes, start, end, bars, note);
    }

    private static int members(ClusterFacts facts, MachineConfigPool pool) {
        return PoolMembers.assign(facts.state().pools(), facts.state().nodes())
                .get(pool.getMetadata().getName())
                .size();
    }

    private static PoolNode done(PoolNode v) {
        return new PoolNode(
                v.name(),
                v.desiredConfig(),
                v.desiredConfig(),
                "Done",
                "",
                v.ready(),
                v.zone(),
                v.created(),
                v.runsController());
    }

    private static PoolNode view(List<PoolNode> views, String name) {
        return views.stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    private static void replace(List<PoolNode> views, PoolNode n) {
        for (int i = 0; i < views.size(); i++)
            if (views.get(i).name().equals(n.name())) views.set(i, n);
    }

    /** The pool's maxUnavailable as the pool controller resolves it; 1 when it cannot be read. */
    public static int lanes(MachineConfigPool pool, int nodes) {
        IntOrString max = pool.getSpec() == null ? null : pool.getSpec().getMaxUnavailable();
        try {
            return MaxUnavailable.resolve(
                    max == null
                            ? null
                            : max.getIntVal() != null ? max.getIntVal() : max.getStrVal(),
                    nodes);
        } catch (IllegalArgumentException e) {
            return 1;
        }
    }
}
