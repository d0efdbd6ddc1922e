package io.upshift.status.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * While an update is in progress, a Lease not renewed for twice the renewal period (or its whole
 * duration, if shorter) or released means no controller runs: said with since when; a Lease renewed
 * in time, or no update in progress, says nothing.
 */
class ControllerPresenceTest {
    private static final Instant RENEWED = Instant.parse("2026-11-27T00:28:24.512Z");
    private static final String LEASE = "upshift/upshift-operator";

    private static ClusterVersion cv(String state) {
        return new ClusterVersionBuilder()
                .withNewMetadata()
                .withName("version")
                .endMetadata()
                .withNewStatus()
                .addNewHistory()
                .withVersion("4.18.2")
                .withState(state)
                .endHistory()
                .endStatus()
                .build();
    }

    private static ControllerPresence.Lease held(Duration duration) {
        return new ControllerPresence.Lease(LEASE, "upshift-operator-7d9f", RENEWED, duration);
    }

    @Test
    void aLeaseNotRenewedForTwoRenewalsMidUpdateSaysSinceWhen() {
        assertThat(
                        ControllerPresence.notRunning(
                                cv("Partial"),
                                held(Duration.ofSeconds(137)),
                                RENEWED.plusSeconds(158)))
                .contains(
                        "The cluster-version controller is not running: its Lease"
                                + " upshift/upshift-operator was last renewed at"
                                + " 2026-11-27T00:28:24Z (2m38s ago) by upshift-operator-7d9f;"
                                + " the update does not move until one runs again.");
    }

    @Test
    void aLeaseRenewedInTimeOrNoUpdateSaysNothing() {
        assertThat(
                        ControllerPresence.notRunning(
                                cv("Partial"),
                                held(Duration.ofSeconds(137)),
                                RENEWED.plusSeconds(52)))
                .isEmpty();
        assertThat(
                        ControllerPresence.notRunning(
                                cv("Completed"),
                                held(Duration.ofSeconds(137)),
                                RENEWED.plusSeconds(600)))
                .isEmpty();
        assertThat(
                        ControllerPresence.notRunning(
                                cv("Partial"),
                                new ControllerPresence.Lease(LEASE, "x", null, null),
                                RENEWED.plusSeconds(600)))
                .as("held, and nothing says since when")
                .isEmpty();
    }

    @Test
    void aShortLeaseGoesStaleSoonerAndAReleasedOneAtOnce() {
        assertThat(
                        ControllerPresence.notRunning(
                                cv("Partial"),
                                held(Duration.ofSeconds(15)),
                                RENEWED.plusSeconds(16)))
                .isPresent();
        assertThat(
                        ControllerPresence.notRunning(
                                cv("Partial"),
                                new ControllerPresence.Lease(
                                        "openshift-cluster-version/version",
                                        "",
                                        RENEWED,
                                        Duration.ofSeconds(1)),
                                RENEWED.plusSeconds(3)))
                .contains(
                        "The cluster-version controller is not running: its Lease"
                                + " openshift-cluster-version/version was released at"
                                + " 2026-11-27T00:28:24Z (3s ago); the update does not move until"
                                + " one runs again.");
    }
}
