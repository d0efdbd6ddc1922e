package io.upshift.pools.model;

import java.nio.charset.StandardCharsets;

/**
 * What the node agent leaves on its host before it reboots into a config: that config and the boot
 * it was written in. Found with the same config and another boot, it says the reboot happened: an
 * agent started after it (the reboot killed the one before) only finishes.
 *
 * @param config the config the host was rebooting into
 * @param bootId the boot the marker was written in
 */
public record HostMarker(String config, String bootId) {

    /** Where the marker lives on the host. */
    public static final String PATH = "/etc/upshift/pending-config";

    /** The marker in {@code content}, or null when there is none or it is cut short. */
    public static HostMarker parse(byte[] content) {
        if (content == null) return null;
        String[] lines = new String(content, StandardCharsets.UTF_8).split("\n");
        return lines.length >= 2 ? new HostMarker(lines[0], lines[1]) : null;
    }

    public byte[] bytes() {
        return (config + "\n" + bootId + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** The host rebooted into {@code desired} since this marker was written. */
    public boolean rebootedInto(String desired, String currentBootId) {
        return config.equals(desired) && !bootId.equals(currentBootId);
    }
}
