package io.upshift.pools.agent;

/**
 * The host's operating system as the agent drives it: which boot it is in, switching to another OS
 * (image, kernel arguments, extensions, kernel type), rebooting, and the systemd operations a
 * config change without a reboot needs. Production runs on systemd ({@link SystemdHost}); tests and
 * the demo use {@link SimulatedHost}.
 */
public interface HostOs {

    /**
     * Changes with every boot; the agent compares it to tell a finished reboot from one still to
     * do.
     */
    String bootId();

    /** Stages the OS to boot next; nothing to do when it is staged already. */
    void stageOs(OsTarget target);

    /**
     * Reboots. On a real host this does not return (the agent is killed and starts again after
     * boot); a simulated host returns once the node is back.
     */
    void reboot();

    /** {@code systemctl reload UNIT}. */
    void reloadUnit(String unit);

    /** {@code systemctl restart UNIT}. */
    void restartUnit(String unit);

    /** {@code systemctl daemon-reload}: systemd reads the unit files again. */
    void daemonReload();
}
