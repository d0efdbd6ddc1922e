package io.upshift.pools.model;

/**
 * Which boot a host is in, as the agent tells it on any systemd host: the host's boot id (the
 * kernel's, or, in a container machine such as systemd-nspawn's, the one its manager gives each
 * start) and the id of a marker the agent keeps under the host's {@code /run}, a tmpfs that every
 * boot starts empty. Either may be unknown (empty): a host whose boot id does not change with its
 * reboots still empties its {@code /run}, and a host root without a {@code /run} (a scratch
 * directory) still has a boot id. Neither changes when the agent itself restarts: both are the
 * host's, not the agent container's.
 *
 * @param bootId the host's boot id, empty when it cannot be read
 * @param runId the id of the marker under the host's {@code /run}, empty when there is none
 */
public record HostBoot(String bootId, String runId) {

    /** Where the agent keeps its marker of the boot, on the host. */
    public static final String RUN_MARKER = "/run/upshift/boot";

    public HostBoot {
        bootId = bootId == null ? "" : bootId.strip();
        runId = runId == null ? "" : runId.strip();
    }

    /**
     * Whether {@code now} is a later boot than this one: the boot id changed, or the marker in
     * {@code /run} did, whichever the host shows. A side that could not be read on either boot says
     * nothing.
     */
    public boolean otherThan(HostBoot now) {
        return changed(bootId, now.bootId) || changed(runId, now.runId);
    }

    private static boolean changed(String then, String now) {
        return !then.isEmpty() && !now.isEmpty() && !then.equals(now);
    }

    @Override
    public String toString() {
        return "boot "
                + (bootId.isEmpty() ? "?" : bootId)
                + " (/run marker "
                + (runId.isEmpty() ? "none" : runId)
                + ")";
    }
}
