package io.upshift.clusterversion.model;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.conditions.StatusConditions;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.RolloutHold;
import java.time.Instant;
import java.util.Map;

/**
 * The maintenance window of the whole update (Upshift's, beyond upstream): the ClusterVersion's
 * annotation {@value MaintenanceWindow#ANNOTATION}, in the syntax of a pool's ({@link
 * MaintenanceWindow}). An accepted request for a new release does not start (the control plane is
 * not touched) until the window opens; an update already under way goes on whatever the window
 * says. An annotation that does not parse holds the request too, naming itself, so that a mistake
 * never lets an update start at the wrong time. While it holds, the controller keeps working on the
 * release it runs, and Progressing (False) says why, in the message {@code oc adm upgrade} prints.
 */
public final class UpdateWindow {
    /** Progressing's reason while the window is closed. */
    public static final String CLOSED = RolloutHold.WINDOW;

    /** Progressing's reason while the annotation does not parse. */
    public static final String INVALID = MaintenanceWindow.INVALID;

    /**
     * Why a requested update does not start now.
     *
     * @param reason {@link #CLOSED} or {@link #INVALID}
     * @param message what holds it, naming the annotation
     * @param until when the window opens (the controller looks again then); null for an invalid one
     */
    public record Hold(String reason, String message, Instant until) {}

    private UpdateWindow() {}

    /**
     * What holds the request for {@code requested} now, or null when it may start (or nothing new
     * is asked for, or it is already under way).
     *
     * @param requested the target {@code spec.desiredUpdate} resolves to (null: none)
     * @param underWay the image the controller already works towards (being retrieved or applied),
     *     or null: a request for it is not held
     */
    public static Hold hold(
            ClusterVersion cv, DesiredUpdates.Target requested, String underWay, Instant now) {
        if (requested == null) return null;
        String image = DesiredUpdates.bare(requested.image());
        var status = cv.getStatus();
        String current =
                status == null
                                || status.getDesired() == null
                                || status.getDesired().getImage() == null
                        ? null
                        : DesiredUpdates.bare(status.getDesired().getImage());
        if (image.equals(current)
                || (underWay != null && image.equals(DesiredUpdates.bare(underWay)))) return null;
        String text = annotation(cv.getMetadata());
        if (text == null) return null;
        String what =
                "the update to " + (requested.version().isEmpty() ? image : requested.version());
        MaintenanceWindow window;
        try {
            window = MaintenanceWindow.parse(text);
        } catch (IllegalArgumentException e) {
            return new Hold(
                    INVALID,
                    what
                            + " does not start: ClusterVersion "
                            + cv.getMetadata().getName()
                            + ": "
                            + e.getMessage(),
                    null);
        }
        if (window.isOpen(now)) return null;
        Instant opens = window.nextOpening(now);
        return new Hold(
                CLOSED,
                what
                        + " waits for the maintenance window \""
                        + window.text()
                        + "\" ("
                        + MaintenanceWindow.ANNOTATION
                        + " on ClusterVersion "
                        + cv.getMetadata().getName()
                        + "), which opens at "
                        + opens,
                opens);
    }

    /**
     * The status with the hold shown: while no update is in progress (Progressing=False as the
     * release running computed it), Progressing keeps False with the hold's reason and its message
     * after "Cluster version is V; ". An update in progress, or a reconcile that fails, says what
     * it says. Without a hold, a hold shown earlier is gone already: the status was computed anew
     * from the worker's report.
     */
    public static void show(ClusterVersionStatus s, Hold hold, Instant now) {
        if (hold == null) return;
        ClusterOperatorStatusCondition p =
                Conditions.CLUSTER.find(s.getConditions(), "Progressing");
        if (p == null || !"False".equals(p.getStatus())) return;
        String reason = p.getReason() == null ? "" : p.getReason();
        if (!reason.isEmpty() && !reason.equals(CLOSED) && !reason.equals(INVALID)) return;
        String version = s.getDesired() == null ? null : s.getDesired().getVersion();
        s.setConditions(
                StatusConditions.set(
                        s.getConditions(),
                        "Progressing",
                        "False",
                        hold.reason(),
                        "Cluster version is " + version + "; " + hold.message(),
                        now));
    }

    /** The ClusterVersion's window annotation, or null when it has none. */
    public static String annotation(ObjectMeta meta) {
        Map<String, String> a = meta == null ? null : meta.getAnnotations();
        return a == null ? null : a.get(MaintenanceWindow.ANNOTATION);
    }
}
