package io.upshift.clusterversion.model;

import io.upshift.releases.taskgraph.Mode;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What the sync worker reports: the release it works on, whether it accepted it, and how far the
 * current pass over its task graph got. The status recorder turns this value into ClusterVersion
 * status ({@link VersionStatus}).
 *
 * @param target the release worked on (image, and version once known); null before any work
 * @param acceptance where accepting the target stands
 * @param mode the mode of the current (or last) pass
 * @param done tasks known done in the current pass (never less than at the previous report of this
 *     target)
 * @param total tasks in the payload
 * @param waitingOn ClusterOperators the pass waits for, by name
 * @param failing the Failing condition of the last pass that did not complete; {@link Failing#NONE}
 *     once one did. It stays while the next pass runs, so status keeps one message until something
 *     changes.
 * @param completed a pass over this target completed (first at {@code completedAt}): the update to
 *     it is done
 */
public record SyncStatus(
        Target target,
        Acceptance acceptance,
        Mode mode,
        int done,
        int total,
        List<String> waitingOn,
        Failing failing,
        boolean completed,
        Instant completedAt,
        Set<String> implicitlyEnabled) {

    public static final SyncStatus IDLE =
            new SyncStatus(
                    null,
                    new Acceptance.Pending(),
                    Mode.RECONCILING,
                    0,
                    0,
                    List.of(),
                    Failing.NONE,
                    false,
                    null,
                    Set.of());

    public SyncStatus {
        waitingOn = List.copyOf(waitingOn);
        implicitlyEnabled = Set.copyOf(implicitlyEnabled);
    }

    /** A release: its pullspec by digest and version (empty until its payload was loaded). */
    public record Target(String image, String version) {}

    /** Where accepting the target stands. */
    public sealed interface Acceptance {
        /**
         * Being retrieved and verified (ReleaseAccepted=Unknown, reason RetrievePayload, as
         * upstream's), or, without a target, nothing to do yet.
         */
        record Pending() implements Acceptance {}

        /** Refused at one of the steps: the ReleaseAccepted=False reason and message. */
        record Refused(String reason, String message) implements Acceptance {}

        /** Accepted: what history and status.desired record about it. */
        record Accepted(
                String version,
                String image,
                String url,
                List<String> channels,
                boolean verified,
                String acceptedRisks,
                String architecture)
                implements Acceptance {
            public Accepted {
                channels = List.copyOf(channels);
            }
        }
    }

    public SyncStatus withAcceptance(Target t, Acceptance a) {
        return new SyncStatus(
                t, a, mode, 0, total, List.of(), Failing.NONE, false, null, implicitlyEnabled);
    }

    public SyncStatus withProgress(Mode m, int doneNow, int totalNow, List<String> waiting) {
        return new SyncStatus(
                target,
                acceptance,
                m,
                Math.max(done, doneNow),
                totalNow,
                waiting,
                failing,
                completed,
                completedAt,
                implicitlyEnabled);
    }

    /**
     * The same, going on from what status already reports of this target: at least {@code reported}
     * tasks done (the count never goes back) and, when nothing else is known yet, waiting on what
     * it says.
     */
    public SyncStatus resumedFrom(int reported, List<String> waiting) {
        return new SyncStatus(
                target,
                acceptance,
                mode,
                Math.max(done, reported),
                total,
                waitingOn.isEmpty() ? waiting : waitingOn,
                failing,
                completed,
                completedAt,
                implicitlyEnabled);
    }

    /** A pass ended: complete, or with the Failing condition its errors make. */
    public SyncStatus afterPass(
            Mode m,
            int doneNow,
            int totalNow,
            List<String> waiting,
            Failing f,
            boolean complete,
            Instant at) {
        return new SyncStatus(
                target,
                acceptance,
                m,
                complete ? totalNow : Math.max(done, doneNow),
                totalNow,
                waiting,
                f,
                completed || complete,
                completed ? completedAt : complete ? at : null,
                implicitlyEnabled);
    }

    public SyncStatus withImplicitlyEnabled(Set<String> capabilities) {
        return new SyncStatus(
                target,
                acceptance,
                mode,
                done,
                total,
                waitingOn,
                failing,
                completed,
                completedAt,
                capabilities);
    }
}
