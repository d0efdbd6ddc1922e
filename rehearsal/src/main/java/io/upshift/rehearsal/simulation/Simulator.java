package io.upshift.rehearsal.simulation;

import io.upshift.rehearsal.model.Blocker;
import io.upshift.rehearsal.model.ClusterFacts;
import io.upshift.rehearsal.model.Durations;
import io.upshift.rehearsal.model.Target;
import io.upshift.rehearsal.model.Timeline;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs an update on a copy of the cluster: an embedded API server seeded from what was read, the
 * real cluster-version controller, pool controller and node agents, simulated operators and hosts
 * taking the durations given, {@code speedup} times faster. It lives with the embedded API server
 * (the demo's code, not in Upshift's image) and is found with {@link java.util.ServiceLoader}.
 */
public interface Simulator {

    /**
     * @param payload the target's payload directory, as read
     * @param speedup how many times faster than {@code durations} the simulated work runs
     * @param timeout give up after this long (wall time)
     * @param work a directory for the simulation's files, deleted by the caller
     */
    record Request(
            ClusterFacts facts,
            Target target,
            Path payload,
            Durations durations,
            double speedup,
            Duration timeout,
            Path work,
            Consumer<String> progress) {}

    /**
     * What the simulation saw: the timeline (times scaled back by the speed-up), what stalled or
     * refused in it (in the controllers' and agents' own words, as they wrote them), and what it
     * cost.
     */
    record Simulated(
            Timeline timeline, List<Blocker> seen, String how, Duration wall, long apiRequests) {
        public Simulated {
            seen = List.copyOf(seen);
        }
    }

    Simulated simulate(Request request) throws Exception;
}
