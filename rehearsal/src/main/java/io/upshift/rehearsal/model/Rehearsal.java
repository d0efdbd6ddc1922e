package io.upshift.rehearsal.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/**
 * A rehearsal's findings: what it read, the release it rehearsed, what would refuse or stall the
 * update, and the predicted timeline.
 *
 * @param source where the cluster was read from ("snapshot DIR", "the API server at URL")
 * @param at when the cluster was read (a snapshot: its latest recorded change), RFC 3339
 * @param blockers refusals first, then stalls, then what would hold it now, then warnings
 * @param timeline the prediction: simulated when the simulation ran, else planned
 * @param simulation how the simulation ran, or why it did not
 * @param lacking what the rehearsal went without, one phrase each
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Rehearsal(
        String source,
        String at,
        String currentVersion,
        Target target,
        List<Blocker> blockers,
        Durations durations,
        Timeline timeline,
        Simulation simulation,
        List<String> lacking) {
    public Rehearsal {
        blockers = blockers.stream().sorted(Comparator.comparing(Blocker::kind)).toList();
        lacking = List.copyOf(lacking);
    }

    /**
     * How the timeline was simulated: the real controllers on an embedded copy of the cluster,
     * {@code speedup} times faster than the durations say; or, with {@code ran} false, why not.
     *
     * @param wall how long the simulation took on this machine
     * @param apiRequests requests the embedded API server answered
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Simulation(
            boolean ran, String how, double speedup, Duration wall, long apiRequests) {
        public static Simulation notRun(String why) {
            return new Simulation(false, why, 0, null, 0);
        }
    }

    public List<Blocker> of(Blocker.Kind kind) {
        return blockers.stream().filter(b -> b.kind() == kind).toList();
    }

    /** Something would refuse or stall the update. */
    @JsonIgnore
    public boolean blocked() {
        return blockers.stream()
                .anyMatch(b -> b.kind() == Blocker.Kind.REFUSES || b.kind() == Blocker.Kind.STALLS);
    }
}
