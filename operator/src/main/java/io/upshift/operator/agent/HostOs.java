package io.upshift.operator.agent;

/**
 * The host's operating system as the agent drives it: which boot it is in, switching to another OS image, rebooting.
 * Production runs on systemd ({@link SystemdHost}); tests and the demo use {@link SimulatedHost}.
 */
public interface HostOs {

    /** Changes with every boot; the agent compares it to tell a finished reboot from one still to do. */
    String bootId();

    /** Stages the OS image to boot next; nothing to do when it is already the one. */
    void stageOsImage(String osImageUrl);

    /**
     * Reboots. On a real host this does not return (the agent is killed and starts again after boot); a simulated
     * host returns once the node is back.
     */
    void reboot();
}
