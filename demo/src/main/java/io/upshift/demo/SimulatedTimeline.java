package io.upshift.demo;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.PoolMembers;
import io.upshift.rehearsal.model.Durations;
import io.upshift.rehearsal.model.Timeline;
import io.upshift.rehearsal.model.TimelinePlan;
import io.upshift.status.estimate.ControlPlaneEstimate;
import io.upshift.status.estimate.RunLevelTimes;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The timeline a simulated update left in its copy of the cluster, as its controllers and agents
 * recorded it (the ClusterVersion's run-level times, each node's {@code upshift.io/update-*-at}
 * annotations), brought back to the cluster's time. The simulation ran the work {@code speedup}
 * times faster than the durations say, but the controllers' and agents' own time (a payload
 * retrieved, a manifest applied, a node cordoned and drained) at their own pace: multiplying that
 * by the speed-up too would inflate it. So each stretch takes its duration as given plus what the
 * simulation spent on it beyond its scheduled work, unscaled; the order of the run-levels, the
 * order in which the pool controller picked the nodes, and what never ended are the simulation's. A
 * run-level without operators has no scheduled work: it takes the longer of its duration and the
 * simulation's. With a speed-up of 1 this is the simulation's timeline as it ran.
 */
final class SimulatedTimeline {
    /** What one stretch of the simulation took, in its wall time from the update's request. */
    record Stretch(String name, Duration start, Duration end) {}

    private SimulatedTimeline() {}

    static Timeline of(
            ClusterVersion cv,
            List<MachineConfigPool> pools,
            List<Node> nodes,
            String targetImage,
            Instant asked,
            Durations durations,
            double k,
            String basis) {
        List<RunLevelTimes.Level> ran = new ArrayList<>();
        RunLevelTimes times = RunLevelTimes.of(cv);
        if (times != null && targetImage.equals(times.image()))
            times.levels().stream().filter(l -> l.startedAt() != null).forEach(ran::add);
        Map<String, List<Node>> members = PoolMembers.assign(pools, nodes);

        Duration t = ran.isEmpty() ? Duration.ZERO : since(asked, ran.get(0).startedAt());
        List<Timeline.Bar> levels = new ArrayList<>();
        List<Timeline.Pool> rolled = null;
        boolean stalled = false;
        for (RunLevelTimes.Level l : ran) {
            Duration simulated =
                    l.doneAt() == null
                            ? null
                            : Duration.between(
                                    Instant.parse(l.startedAt()), Instant.parse(l.doneAt()));
            boolean machineConfig = l.operators().contains(ControlPlaneEstimate.MACHINE_CONFIG);
            String note = String.join(", ", l.operators());
            if (machineConfig) {
                rolled = pools(pools, members, durations, k, asked, t);
                Timeline.Pool master =
                        rolled.stream()
                                .filter(p -> p.name().equals("master"))
                                .findFirst()
                                .orElse(null);
                Duration own =
                        t.plus(durations.runLevels().getOrDefault(l.runLevel(), Duration.ZERO));
                Duration end =
                        simulated == null
                                ? null
                                : master == null || master.start() == null
                                        ? own
                                        : master.end() == null
                                                ? null
                                                : master.end().compareTo(own) > 0
                                                        ? master.end()
                                                        : own;
                levels.add(
                        new Timeline.Bar(
                                l.runLevel(), t, end, end == null ? note + "; stalls" : note));
                if (end == null) {
                    stalled = true;
                    break;
                }
                t = end;
                continue;
            }
            if (simulated == null) {
                levels.add(
                        new Timeline.Bar(
                                l.runLevel(),
                                t,
                                null,
                                note + (note.isEmpty() ? "" : "; ") + "stalls"));
                stalled = true;
                break;
            }
            Duration given = durations.runLevels().getOrDefault(l.runLevel(), Duration.ZERO);
            Duration took =
                    l.operators().isEmpty()
                            ? max(given, simulated)
                            : given.plus(overhead(simulated, given, k));
            levels.add(new Timeline.Bar(l.runLevel(), t, t.plus(took), note));
            t = t.plus(took);
        }
        boolean completed =
                !stalled
                        && cv.getStatus().getHistory() != null
                        && !cv.getStatus().getHistory().isEmpty()
                        && "Completed".equals(cv.getStatus().getHistory().get(0).getState())
                        && targetImage.equals(cv.getStatus().getHistory().get(0).getImage());
        Duration controlPlaneEnd = completed ? t : null;
        if (rolled == null) rolled = pools(pools, members, durations, k, asked, null);
        Duration end = controlPlaneEnd;
        for (Timeline.Pool p : rolled) {
            if (p.start() == null) continue;
            if (p.end() == null) end = null;
            else if (end != null && p.end().compareTo(end) > 0) end = p.end();
        }
        return new Timeline(levels, rolled, controlPlaneEnd, end, basis);
    }

    /**
     * Each pool's rollout from {@code start}: its nodes in the order the pool controller picked
     * them in the simulation, each on the first lane to come free, taking the pool's node time plus
     * what the simulation spent on it beyond its host's reboot.
     */
    private static List<Timeline.Pool> pools(
            List<MachineConfigPool> pools,
            Map<String, List<Node>> members,
            Durations durations,
            double k,
            Instant asked,
            Duration start) {
        List<Timeline.Pool> out = new ArrayList<>();
        for (MachineConfigPool pool : pools) {
            String name = pool.getMetadata().getName();
            List<Node> own = members.get(name);
            int lanes = TimelinePlan.lanes(pool, own.size());
            if (pool.getSpec() != null && Boolean.TRUE.equals(pool.getSpec().getPaused())) {
                out.add(
                        new Timeline.Pool(
                                name,
                                own.size(),
                                lanes,
                                null,
                                null,
                                List.of(),
                                "paused: its nodes stay on their current config"));
                continue;
            }
            Duration perNode = durations.nodes().getOrDefault(name, Durations.DEFAULT_NODE);
            List<Stretch> simulated = new ArrayList<>();
            for (Node n : own) {
                Map<String, String> a =
                        n.getMetadata().getAnnotations() == null
                                ? Map.of()
                                : n.getMetadata().getAnnotations();
                Instant started = instant(a.get(NodeAnnotations.UPDATE_STARTED_AT));
                if (started == null || started.isBefore(asked)) continue;
                Instant done = instant(a.get(NodeAnnotations.UPDATE_DONE_AT));
                boolean finished =
                        done != null
                                && !done.isBefore(started)
                                && NodeAnnotations.DONE.equals(a.get(NodeAnnotations.STATE));
                simulated.add(
                        new Stretch(
                                n.getMetadata().getName(),
                                Duration.between(asked, started),
                                finished ? Duration.between(asked, done) : null));
            }
            if (start == null) {
                out.add(
                        new Timeline.Pool(
                                name,
                                own.size(),
                                lanes,
                                null,
                                null,
                                List.of(),
                                simulated.isEmpty() ? "not reached" : ""));
                continue;
            }
            simulated.sort(Comparator.comparing(Stretch::start));
            PriorityQueue<Duration> free = new PriorityQueue<>();
            for (int i = 0; i < lanes; i++) free.add(start);
            List<Timeline.Bar> bars = new ArrayList<>();
            Duration poolEnd = start;
            boolean done = simulated.size() == own.size();
            for (Stretch s : simulated) {
                Duration at = free.poll();
                if (at == null) break; // every lane held by a node that never ends
                if (s.end() == null) {
                    bars.add(new Timeline.Bar(s.name(), at, null, "stalls"));
                    done = false;
                    continue;
                }
                Duration took = perNode.plus(overhead(s.end().minus(s.start()), perNode, k));
                bars.add(new Timeline.Bar(s.name(), at, at.plus(took), ""));
                free.add(at.plus(took));
                if (at.plus(took).compareTo(poolEnd) > 0) poolEnd = at.plus(took);
            }
            int notStarted = own.size() - bars.size();
            out.add(
                    new Timeline.Pool(
                            name,
                            own.size(),
                            lanes,
                            start,
                            done ? poolEnd : null,
                            bars,
                            notStarted == 0
                                    ? ""
                                    : notStarted
                                            + (notStarted == 1 ? " node" : " nodes")
                                            + " never picked"));
        }
        return out;
    }

    /** What the simulation spent on a stretch beyond its scheduled work ({@code given}/k). */
    private static Duration overhead(Duration simulated, Duration given, double k) {
        Duration scheduled = Duration.ofMillis(Math.round(given.toMillis() / k));
        Duration over = simulated.minus(scheduled);
        return over.isNegative() ? Duration.ZERO : over;
    }

    private static Duration since(Instant asked, String at) {
        Duration d = Duration.between(asked, Instant.parse(at));
        return d.isNegative() ? Duration.ZERO : d;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static Instant instant(String s) {
        try {
            return s == null || s.isEmpty() ? null : Instant.parse(s);
        } catch (DateTimeException e) {
            return null;
        }
    }
}
