package io.upshift.clusterversion.controller;

import io.upshift.releases.payload.Payload;
import io.upshift.releases.taskgraph.Mode;
import io.upshift.releases.taskgraph.RunLevelName;
import io.upshift.releases.taskgraph.Task;
import io.upshift.status.estimate.RunLevelTimes;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * Times the run-levels of an update as its Updating passes apply them: a run-level starts when its
 * first task does and is done when a pass has done all its tasks. What it holds ({@link #current})
 * the controller keeps in the ClusterVersion's annotation ({@link TimesAnnotation}); a controller
 * that takes over mid-update starts from that annotation, so times survive restarts. Installs and
 * Reconciling passes are not timed (their graphs run run-levels side by side), and leave the times
 * of the last update as they are.
 */
final class RunLevelClock {
    private final Clock clock;
    private RunLevelTimes times;
    private boolean timing;
    private final Map<String, Integer> tasks = new HashMap<>();
    private final Map<String, Integer> doneThisPass = new HashMap<>();

    RunLevelClock(Clock clock) {
        this.clock = clock;
    }

    /**
     * A pass over {@code payload} (release {@code image}) begins; {@code inCluster} is what the
     * ClusterVersion's annotation holds (null when none).
     */
    synchronized void begin(Payload payload, String image, Mode mode, RunLevelTimes inCluster) {
        doneThisPass.clear();
        timing = mode == Mode.UPDATING;
        if (!timing) {
            return;
        }
        var levels = RunLevelTimes.levelsOf(payload.manifests());
        tasks.clear();
        levels.forEach(l -> tasks.put(l.runLevel(), l.tasks()));
        // taking over from another controller: what it left running was interrupted
        RunLevelTimes base =
                times != null ? times : inCluster == null ? null : inCluster.takenOver();
        times = RunLevelTimes.plan(image, payload.version(), levels, base);
    }

    /** A task begins: its run-level has started, if it had not. */
    synchronized void started(Task t) {
        if (timing) {
            times = times.started(RunLevelName.of(t.manifest().file()), clock.instant());
        }
    }

    /** A task is done: its run-level is done once every one of its tasks is, in this pass. */
    synchronized void done(Task t) {
        if (!timing) {
            return;
        }
        String level = RunLevelName.of(t.manifest().file());
        int n = doneThisPass.merge(level, 1, Integer::sum);
        if (n >= tasks.getOrDefault(level, 0)) {
            times = times.done(level, clock.instant());
        }
    }

    /**
     * The times of the update being (or last) timed; null before any Updating pass of this
     * controller.
     */
    synchronized RunLevelTimes current() {
        return times;
    }
}
