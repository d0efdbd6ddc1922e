package io.upshift.graph.updates;

import io.upshift.graph.model.GraphNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A release a cluster could update to, as ClusterVersion status lists it: version, image, errata
 * URL, channels.
 */
public record Target(
        String version, String image, String url, List<String> channels, String architecture) {

    public Target {
        channels = List.copyOf(channels);
    }

    /**
     * From a graph node: channels sorted, empty entries dropped; architecture only when "multi".
     */
    public static Target of(GraphNode n) {
        List<String> channels = new ArrayList<>();
        for (String c : n.metadata().getOrDefault(GraphNode.CHANNELS, "").split(","))
            if (!c.isEmpty()) channels.add(c);
        channels.sort(null);
        String arch =
                "multi".equals(n.metadata().get("release.openshift.io/architecture"))
                        ? "Multi"
                        : "";
        return new Target(
                n.version(), n.payload(), n.metadata().getOrDefault("url", ""), channels, arch);
    }
}
