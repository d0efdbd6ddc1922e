package io.upshift.pools.agent;

import io.upshift.pools.model.HostBoot;
import java.util.Optional;

/**
 * The host's operating system as the agent drives it: which boot it is in, switching to another OS
 * (image, kernel arguments, extensions, kernel type), rebooting, and the systemd operations a
 * config change without a reboot needs. Production runs on systemd ({@link SystemdHost}); tests and
 * the demo use {@link SimulatedHost}.
 */
public interface HostOs {

    /**
     * The boot the host is in; the agent compares it with the one its marker was written in to tell
     * a finished reboot from one still to do. Never changed by the agent's own restart.
     */
    HostBoot boot();

    /**
     * Stages the OS to boot next; nothing to do when it is staged already. An image the host has
     * already fallen back from ({@link #bootFailure()}) is refused with the host's words.
     */
    void stageOs(OsTarget target);

    /**
     * Why this boot is not in the OS image staged for it: the host fell back to the previous image
     * (its own words, naming the image and what failed), or never put the staged one in place;
     * empty when it is (or when the host cannot tell, as on rpm-ostree).
     */
    default Optional<String> bootFailure() {
        return Optional.empty();
    }

    /**
     * Whether {@code words}, a host's message on falling back (deploy/host/node-image writes "node
     * image REF failed: ..."), is about {@code image}.
     */
    static boolean fellBackFrom(String words, String image) {
        return words != null
                && !image.isEmpty()
                && words.startsWith("node image " + image + " failed");
    }

    /**
     * Reboots. On a real host this does not return (the agent is stopped as the host goes down and
     * starts again after boot): an agent stopped meanwhile gets {@link InterruptedException}, never
     * a return, so that nothing after the reboot runs before it. A simulated host returns once the
     * node is back.
     */
    void reboot() throws InterruptedException;

    /** {@code systemctl reload UNIT}. */
    void reloadUnit(String unit);

    /** {@code systemctl restart UNIT}. */
    void restartUnit(String unit);

    /** {@code systemctl daemon-reload}: systemd reads the unit files again. */
    void daemonReload();
}
