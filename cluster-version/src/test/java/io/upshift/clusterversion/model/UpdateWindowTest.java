package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.conditions.StatusConditions;
import io.upshift.pools.model.MaintenanceWindow;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The window of the whole update: what it holds, when, and how status says so. */
class UpdateWindowTest {
    /** A Saturday, 12:00 UTC. */
    static final Instant SATURDAY_NOON = Instant.parse("2026-11-28T12:00:00Z");

    static final DesiredUpdates.Target REQUESTED =
            new DesiredUpdates.Target("4.18.2", "img-4.18.2", false, List.of());

    static ClusterVersion cv(String window) {
        ClusterVersion cv = DesiredUpdatesTest.cv("4.18.2", null);
        if (window != null)
            cv.getMetadata()
                    .setAnnotations(new HashMap<>(Map.of(MaintenanceWindow.ANNOTATION, window)));
        return cv;
    }

    @Test
    void aClosedWindowHoldsANewRequestUntilItOpens() {
        UpdateWindow.Hold hold =
                UpdateWindow.hold(cv("Sun 02:00-06:00"), REQUESTED, "img-4.18.1", SATURDAY_NOON);
        assertThat(hold.reason()).isEqualTo(UpdateWindow.CLOSED);
        assertThat(hold.until()).isEqualTo(Instant.parse("2026-11-29T02:00:00Z"));
        assertThat(hold.message())
                .isEqualTo(
                        "the update to 4.18.2 waits for the maintenance window \"Sun 02:00-06:00\""
                                + " (upshift.io/maintenance-window on ClusterVersion version),"
                                + " which opens at 2026-11-29T02:00:00Z");
        // open: it starts
        assertThat(
                        UpdateWindow.hold(
                                cv("Sun 02:00-06:00"),
                                REQUESTED,
                                "img-4.18.1",
                                Instant.parse("2026-11-29T02:00:00Z")))
                .isNull();
    }

    @Test
    void anUpdateUnderWayOrNothingNewIsNotHeld() {
        ClusterVersion cv = cv("Sun 02:00-06:00");
        // the worker already works towards it (retrieving, or applying)
        assertThat(UpdateWindow.hold(cv, REQUESTED, "img-4.18.2", SATURDAY_NOON)).isNull();
        // accepted already: status names it
        cv.getStatus().getDesired().setImage("img-4.18.2");
        assertThat(UpdateWindow.hold(cv, REQUESTED, null, SATURDAY_NOON)).isNull();
        // nothing asked
        assertThat(UpdateWindow.hold(cv, null, null, SATURDAY_NOON)).isNull();
        // no window
        assertThat(UpdateWindow.hold(cv(null), REQUESTED, "img-4.18.1", SATURDAY_NOON)).isNull();
    }

    @Test
    void aWindowThatDoesNotParseHoldsTheRequestNamingTheAnnotation() {
        UpdateWindow.Hold hold =
                UpdateWindow.hold(cv("Someday 02:00-06:00"), REQUESTED, null, SATURDAY_NOON);
        assertThat(hold.reason()).isEqualTo(UpdateWindow.INVALID);
        assertThat(hold.until()).isNull();
        assertThat(hold.message())
                .isEqualTo(
                        "the update to 4.18.2 does not start: ClusterVersion version: annotation"
                                + " upshift.io/maintenance-window \"Someday 02:00-06:00\": unknown"
                                + " day \"Someday\" (Mon, Tue, Wed, Thu, Fri, Sat, Sun)");
    }

    @Test
    void progressingSaysSoWhileNothingElseIsInProgress() {
        ClusterVersionStatus s = new ClusterVersionStatus();
        s.setDesired(cv(null).getStatus().getDesired());
        s.setConditions(
                StatusConditions.set(
                        null,
                        "Progressing",
                        "False",
                        "",
                        "Cluster version is 4.18.1",
                        SATURDAY_NOON));
        UpdateWindow.Hold hold =
                UpdateWindow.hold(cv("Sun 02:00-06:00"), REQUESTED, null, SATURDAY_NOON);
        UpdateWindow.show(s, hold, SATURDAY_NOON.plusSeconds(5));
        ClusterOperatorStatusCondition p =
                Conditions.CLUSTER.find(s.getConditions(), "Progressing");
        assertThat(p.getStatus()).isEqualTo("False");
        assertThat(p.getReason()).isEqualTo("MaintenanceWindow");
        assertThat(p.getMessage()).isEqualTo("Cluster version is 4.18.1; " + hold.message());
        // shown again the same, nothing changes (no write)
        ClusterVersionStatus again = new ClusterVersionStatus();
        again.setDesired(s.getDesired());
        again.setConditions(List.copyOf(s.getConditions()));
        UpdateWindow.show(again, hold, SATURDAY_NOON.plusSeconds(60));
        assertThat(again.getConditions()).isEqualTo(s.getConditions());

        // an update in progress says what it says
        ClusterVersionStatus updating = new ClusterVersionStatus();
        updating.setConditions(
                StatusConditions.set(
                        null, "Progressing", "True", "", "Working towards 4.18.1", SATURDAY_NOON));
        UpdateWindow.show(updating, hold, SATURDAY_NOON);
        assertThat(Conditions.CLUSTER.find(updating.getConditions(), "Progressing").getMessage())
                .isEqualTo("Working towards 4.18.1");
    }
}
