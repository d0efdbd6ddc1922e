package io.upshift.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a synthetic release set and graph data for load tests: {@code SyntheticGraphData NODES
 * EDGES_PER_NODE OUTDIR} gives OUTDIR/releases (versions 1.0.0 ... in one channel "synthetic-1",
 * each with EDGES_PER_NODE previous) and OUTDIR/data.
 */
public final class SyntheticGraphData {

    public static void main(String[] args) throws Exception {
        int nodes = Integer.parseInt(args[0]), perNode = Integer.parseInt(args[1]);
        Path out = Path.of(args[2]);
        Path releases = Files.createDirectories(out.resolve("releases"));
        Files.createDirectories(out.resolve("data/channels"));
        Files.writeString(out.resolve("data/version"), "1.1.0");
        StringBuilder channel = new StringBuilder("name: synthetic-1\nversions:\n");
        long edges = 0;
        for (int i = 0; i < nodes; i++) {
            String v = version(i);
            channel.append("- ").append(v).append('\n');
            StringBuilder previous = new StringBuilder();
            for (int p = Math.max(0, i - perNode); p < i; p++) {
                previous.append(previous.length() == 0 ? "" : ",")
                        .append('"')
                        .append(version(p))
                        .append('"');
                edges++;
            }
            Files.writeString(
                    releases.resolve(v + ".json"),
                    "{\"version\":\""
                            + v
                            + "\",\"previous\":["
                            + previous
                            + "],"
                            + "\"metadata\":{\"url\":\"https://example.com/errata/"
                            + v
                            + "\"},\"architecture\":\"amd64\","
                            + "\"payload\":\"registry.example/release@sha256:"
                            + String.format("%064x", i)
                            + "\"}");
        }
        Files.writeString(out.resolve("data/channels/synthetic-1.yaml"), channel);
        System.out.println("wrote " + nodes + " releases with " + edges + " edges to " + out);
    }

    private static String version(int i) {
        return "1." + (i / 1000) + "." + (i % 1000);
    }
}
