package io.upshift.pools.model;

import java.nio.charset.StandardCharsets;

/**
 * What the node agent leaves on its host before it reboots into a config: that config and the boot
 * it was written in. Found with the same config in a later boot, it says the reboot happened: an
 * agent started after it (the reboot killed the one before) only finishes. Found in the same boot
 * (the agent restarted, the host did not), the reboot is still to do.
 *
 * @param config the config the host was rebooting into
 * @param boot the boot the marker was written in
 */
public record HostMarker(String config, HostBoot boot) {

    /** Where the marker lives on the host (on its disk: it outlives the reboot). */
    public static final String PATH = "/etc/upshift/pending-config";

    /**
     * The marker in {@code content}, or null when there is none or it is cut short: the config, the
     * boot id and the {@code /run} marker's id, a line each (an agent before the {@code /run}
     * marker wrote the first two).
     */
    public static HostMarker parse(byte[] content) {
        if (content == null) return null;
        String[] lines = new String(content, StandardCharsets.UTF_8).split("\n");
        if (lines.length < 2) return null;
        return new HostMarker(lines[0], new HostBoot(lines[1], lines.length > 2 ? lines[2] : ""));
    }

    public byte[] bytes() {
        return (config + "\n" + boot.bootId() + "\n" + boot.runId() + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The host rebooted into {@code desired} since this marker was written. */
    public boolean rebootedInto(String desired, HostBoot now) {
        return config.equals(desired) && boot.otherThan(now);
    }
}
