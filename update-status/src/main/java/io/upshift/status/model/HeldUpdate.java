package io.upshift.status.model;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.upshift.base.conditions.Conditions;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.RolloutHold;
import java.time.Instant;
import java.util.Map;

/**
 * An update asked for that the update's maintenance window holds (Upshift's cluster-version
 * controller says so with Progressing=False, reason {@value RolloutHold#WINDOW}): what was asked
 * for, and when the window opens.
 *
 * @param requested the image asked for, else its version
 * @param opens when the ClusterVersion's window next opens
 */
record HeldUpdate(String requested, Instant opens) {

    /** The update held at {@code at}, or null when none is (or the window cannot be read). */
    static HeldUpdate of(ClusterVersion cv, Instant at) {
        ClusterOperatorStatusCondition p =
                Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Progressing");
        if (p == null
                || !"False".equals(p.getStatus())
                || !RolloutHold.WINDOW.equals(p.getReason())) return null;
        Update d = cv.getSpec() == null ? null : cv.getSpec().getDesiredUpdate();
        Map<String, String> a = cv.getMetadata().getAnnotations();
        String text = a == null ? null : a.get(MaintenanceWindow.ANNOTATION);
        if (d == null || text == null) return null;
        String requested =
                d.getImage() != null && !d.getImage().isEmpty() ? d.getImage() : d.getVersion();
        if (requested == null || requested.isEmpty()) return null;
        try {
            return new HeldUpdate(requested, MaintenanceWindow.parse(text).nextOpening(at));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
