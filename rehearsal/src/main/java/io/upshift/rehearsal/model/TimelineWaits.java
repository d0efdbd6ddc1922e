package io.upshift.rehearsal.model;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.clusterversion.model.DesiredUpdates;
import io.upshift.clusterversion.model.UpdateWindow;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.SoakTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The waits of Upshift's rollout controls laid over a timeline of the work alone (planned, or
 * simulated on a copy without them): the update's start waits for the ClusterVersion's maintenance
 * window (everything moves by the wait, shown as a first bar); in each pool a node starts only when
 * every node done before it has soaked for the pool's soak time and when the pool's window is open
 * long enough for it to finish (its time as the timeline has it), its lanes as before. The waits
 * added are named in {@link Timeline#waits()}.
 */
public final class TimelineWaits {
    /** The first bar's name while the update waits for the ClusterVersion's window. */
    public static final String WINDOW_BAR = "(window)";

    private TimelineWaits() {}

    /**
     * @param asked when the update would be asked for (the cluster as read)
     */
    public static Timeline apply(Timeline t, ClusterFacts facts, Target target, Instant asked) {
        List<String> waits = new ArrayList<>();
        Duration shift = Duration.ZERO;
        List<Timeline.Bar> levels = new ArrayList<>();
        UpdateWindow.Hold hold =
                UpdateWindow.hold(
                        facts.clusterVersion(),
                        new DesiredUpdates.Target(
                                target.version(), target.image(), false, List.of()),
                        null,
                        asked);
        if (hold != null && hold.until() != null) {
            shift = Duration.between(asked, hold.until());
            levels.add(
                    new Timeline.Bar(
                            WINDOW_BAR,
                            Duration.ZERO,
                            shift,
                            "waits for the update's maintenance window"));
            waits.add(Span.of(shift) + " before the update starts: " + hold.message());
        }
        for (Timeline.Bar b : t.runLevels()) levels.add(moved(b, shift));
        Duration controlPlaneEnd = plus(t.controlPlaneEnd(), shift);
        List<Timeline.Pool> pools = new ArrayList<>();
        Duration end = controlPlaneEnd;
        boolean finishes = t.end() != null;
        for (Timeline.Pool p : t.pools()) {
            Timeline.Pool paced = paced(moved(p, shift), pool(facts, p.name()), asked, waits);
            pools.add(paced);
            if (paced.end() != null && end != null && paced.end().compareTo(end) > 0)
                end = paced.end();
            if ("master".equals(p.name())
                    && paced.end() != null
                    && controlPlaneEnd != null
                    && paced.end().compareTo(controlPlaneEnd) > 0) {
                // the machine-config run-level waits for the control-plane pool
                controlPlaneEnd = paced.end();
            }
        }
        if (waits.isEmpty()) return t;
        return new Timeline(
                levels, pools, controlPlaneEnd, finishes ? end : null, t.basis(), waits);
    }

    /** The pool's nodes started again in their order, each after the waits its pool sets. */
    private static Timeline.Pool paced(
            Timeline.Pool p, MachineConfigPool pool, Instant asked, List<String> waits) {
        if (pool == null || p.start() == null || p.nodes().isEmpty()) return p;
        MaintenanceWindow window;
        SoakTime soak;
        try {
            Map<String, String> a = pool.getMetadata().getAnnotations();
            String w = a == null ? null : a.get(MaintenanceWindow.ANNOTATION);
            window = w == null ? null : MaintenanceWindow.parse(w);
            soak = SoakTime.of(pool);
        } catch (IllegalArgumentException e) {
            return p; // the pool is degraded: Stalls says so
        }
        if (window == null && soak == null) return p;
        List<Timeline.Bar> order = new ArrayList<>(p.nodes());
        order.sort(Comparator.comparing(Timeline.Bar::start));
        PriorityQueue<Duration> lanes = new PriorityQueue<>();
        for (int i = 0; i < Math.max(1, p.lanes()); i++) lanes.add(p.start());
        List<Duration> ends = new ArrayList<>();
        List<Timeline.Bar> bars = new ArrayList<>();
        Duration windowWait = Duration.ZERO, soakWait = Duration.ZERO;
        for (Timeline.Bar b : order) {
            Duration free = lanes.poll();
            if (b.end() == null) { // stalls: it starts when it would, and never ends
                Duration start = max(free, b.start());
                bars.add(new Timeline.Bar(b.name(), start, null, b.note()));
                continue;
            }
            Duration took = b.end().minus(b.start());
            Duration start = free;
            for (int i = 0; i < 64; i++) {
                Duration before = start;
                if (soak != null)
                    for (Duration e : ends) {
                        Duration soaked = e.plus(soak.length());
                        if (e.compareTo(start) <= 0 && soaked.compareTo(start) > 0) {
                            soakWait = soakWait.plus(soaked.minus(start));
                            start = soaked;
                        }
                    }
                if (window != null) {
                    Instant at = asked.plus(start);
                    Duration opens = Duration.between(asked, window.nextStart(at, took));
                    windowWait = windowWait.plus(opens.minus(start));
                    start = opens;
                }
                if (start.equals(before)) break;
            }
            Duration end = start.plus(took);
            bars.add(new Timeline.Bar(b.name(), start, end, b.note()));
            ends.add(end);
            lanes.add(end);
        }
        if (!windowWait.isZero())
            waits.add(
                    "pool "
                            + p.name()
                            + ": "
                            + Span.of(windowWait)
                            + " for its maintenance window \""
                            + window.text()
                            + "\" ("
                            + MaintenanceWindow.ANNOTATION
                            + ")");
        if (!soakWait.isZero())
            waits.add(
                    "pool "
                            + p.name()
                            + ": "
                            + Span.of(soakWait)
                            + " of soak time "
                            + soak.text()
                            + " ("
                            + SoakTime.ANNOTATION
                            + ")");
        boolean finishes = p.end() != null;
        Duration end =
                finishes
                        ? bars.stream()
                                .map(Timeline.Bar::end)
                                .max(Duration::compareTo)
                                .orElse(p.start())
                        : null;
        return new Timeline.Pool(p.name(), p.members(), p.lanes(), p.start(), end, bars, p.note());
    }

    private static MachineConfigPool pool(ClusterFacts facts, String name) {
        return facts.state().pools().stream()
                .filter(p -> p.getMetadata().getName().equals(name))
                .findFirst()
                .orElse(null);
    }

    private static Timeline.Bar moved(Timeline.Bar b, Duration by) {
        return new Timeline.Bar(b.name(), b.start().plus(by), plus(b.end(), by), b.note());
    }

    private static Timeline.Pool moved(Timeline.Pool p, Duration by) {
        List<Timeline.Bar> bars = p.nodes().stream().map(b -> moved(b, by)).toList();
        return new Timeline.Pool(
                p.name(),
                p.members(),
                p.lanes(),
                plus(p.start(), by),
                plus(p.end(), by),
                bars,
                p.note());
    }

    private static Duration plus(Duration d, Duration by) {
        return d == null ? null : d.plus(by);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
