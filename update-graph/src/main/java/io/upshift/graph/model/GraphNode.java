package io.upshift.graph.model;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A release in an update graph: its version, pullspec (by digest) and metadata (channels,
 * manifestref, url ...).
 */
public record GraphNode(String version, String payload, Map<String, String> metadata) {

    public static final String CHANNELS = "io.openshift.upgrades.graph.release.channels";
    public static final String MANIFESTREF = "io.openshift.upgrades.graph.release.manifestref";

    public GraphNode {
        metadata = Collections.unmodifiableMap(new TreeMap<>(metadata));
    }

    /** True when the node's channels metadata lists {@code channel}. */
    public boolean inChannel(String channel) {
        String channels = metadata.getOrDefault(CHANNELS, "");
        for (String c : channels.split(",")) {
            if (c.equals(channel)) return true;
        }
        return false;
    }
}
