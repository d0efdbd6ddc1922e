package io.upshift.pools.agent;

import io.upshift.pools.disruption.DisruptionAction;
import io.upshift.pools.disruption.DisruptionPlan;

/**
 * Carries out the actions of a plan that needs no reboot, in order, as upstream's daemon does
 * ({@code performPostConfigChangeNodeDisruptionAction}): None records that no reboot was needed;
 * Reload, Restart and DaemonReload go to the host's systemd; Special is a CRI-O reload; Drain was
 * done before the files were written. Each is recorded as an Event on the node with upstream's
 * reason and words; a failure is a warning Event and an error whose message is the node's Degraded
 * reason.
 */
final class RebootlessActions {
    private final HostOs os;
    private final NodeRecorder events;

    RebootlessActions(HostOs os, NodeRecorder events) {
        this.os = os;
        this.events = events;
    }

    void carryOut(DisruptionPlan plan) {
        for (DisruptionAction action : plan.actions()) {
            switch (action.type()) {
                case NONE -> events.event("SkipReboot", "Config changes do not require reboot.");
                case RELOAD -> reload(action.unit());
                case SPECIAL -> reload("crio.service");
                case DAEMON_RELOAD -> {
                    run(
                            os::daemonReload,
                            "FailedServiceReload",
                            "Reloading service daemon-reload failed",
                            "could not apply update: reloading daemon-reload configuration failed");
                    events.event(
                            "ServiceReload",
                            "Config changes do not require reboot. Service daemon-reload was"
                                    + " reloaded.");
                }
                case RESTART -> {
                    run(
                            () -> os.restartUnit(action.unit()),
                            "FailedServiceRestart",
                            "Restarting " + action.unit() + " service failed",
                            "could not apply update: restarting "
                                    + action.unit()
                                    + " service failed");
                    events.event(
                            "ServiceRestart",
                            "Config changes do not require reboot. Service "
                                    + action.unit()
                                    + " was restarted.");
                }
                case DRAIN, REBOOT -> {
                    // drained before the files were written; a plan with a Reboot does not come
                    // here
                }
            }
        }
    }

    private void reload(String unit) {
        run(
                () -> os.reloadUnit(unit),
                "FailedServiceReload",
                "Reloading service " + unit + " failed",
                "could not apply update: reloading " + unit + " configuration failed");
        events.event(
                "ServiceReload",
                "Config changes do not require reboot. Service " + unit + " was reloaded.");
    }

    private void run(Runnable operation, String eventReason, String event, String reason) {
        try {
            operation.run();
        } catch (RuntimeException e) {
            events.warning(eventReason, event + ". Error: " + e.getMessage());
            throw new IllegalStateException(reason + ". Error: " + e.getMessage(), e);
        }
    }
}
