package io.upshift.status.model;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Whether a cluster-version controller is there to move an update on: while an update is in
 * progress and no controller holds the leader Lease, status shows a progress that does not move,
 * and nothing in it says why. The Lease says it: released (no holder), or not renewed for longer
 * than a holder renews it (twice its renewal period) or than it lasts: a controller killed without
 * releasing it (a node crash) holds it on paper until it expires, but has stopped renewing it. The
 * Lease is {@value #NAMESPACE}/{@value #LEASE}, which Upshift and OpenShift's cluster-version
 * operator both hold and renew on the same timings, or on a cluster where Upshift still runs under
 * its old names {@value #LEGACY_NAMESPACE}/{@value #LEGACY_LEASE}; a cluster with neither says
 * nothing of its controller.
 */
public final class ControllerPresence {
    /**
     * The namespace and name of the Lease {@code upshift operator} holds by default: upstream's
     * cluster-version operator's, whose place it takes.
     */
    public static final String NAMESPACE = "openshift-cluster-version";

    public static final String LEASE = "version";

    /** Where Upshift held its Lease before it took upstream's names (a cluster not yet moved). */
    public static final String LEGACY_NAMESPACE = "upshift";

    public static final String LEGACY_LEASE = "upshift-operator";

    /** How often a holder renews the Lease: upstream's retry period, 26 s. */
    public static final Duration RENEWAL = Duration.ofSeconds(26);

    /**
     * What a Lease says: its {@code namespace/name}, holder, last renewal and duration ({@code
     * renewTime} and {@code duration} may be null: a Lease written by hand).
     */
    public record Lease(String name, String holder, Instant renewTime, Duration duration) {}

    private ControllerPresence() {}

    /**
     * Why the update does not move, when an update is in progress and no controller holds {@code
     * lease} at {@code now}: one sentence naming the Lease and since when; empty otherwise.
     */
    public static Optional<String> notRunning(ClusterVersion cv, Lease lease, Instant now) {
        if (!updating(cv)) return Optional.empty();
        Instant renewed = lease.renewTime();
        boolean held = lease.holder() != null && !lease.holder().isEmpty();
        if (held) {
            if (renewed == null) return Optional.empty(); // nothing says since when: trust it
            Duration stale = RENEWAL.multipliedBy(2);
            if (lease.duration() != null && lease.duration().compareTo(stale) < 0)
                stale = lease.duration();
            if (!now.isAfter(renewed.plus(stale))) return Optional.empty();
        }
        String since =
                renewed == null
                        ? ""
                        : " at "
                                + renewed.truncatedTo(ChronoUnit.SECONDS)
                                + " ("
                                + GoDuration.format(
                                        Duration.between(renewed, now)
                                                .truncatedTo(ChronoUnit.SECONDS)
                                                .toNanos())
                                + " ago)";
        return Optional.of(
                "The cluster-version controller is not running: its Lease "
                        + lease.name()
                        + (held
                                ? " was last renewed" + since + " by " + lease.holder()
                                : " was released" + since)
                        + "; the update does not move until one runs again.");
    }

    /** An update in progress: history[0] Partial, or Progressing=True. */
    private static boolean updating(ClusterVersion cv) {
        if (cv == null || cv.getStatus() == null) return false;
        List<UpdateHistory> history = cv.getStatus().getHistory();
        if (history != null && !history.isEmpty() && "Partial".equals(history.get(0).getState()))
            return true;
        ClusterOperatorStatusCondition p =
                Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Progressing");
        return p != null && "True".equals(p.getStatus());
    }
}
