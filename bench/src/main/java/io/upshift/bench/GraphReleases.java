package io.upshift.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.graph.model.ConditionalEdges;
import io.upshift.graph.model.Graph;
import io.upshift.graph.model.GraphJson;
import io.upshift.graph.model.GraphNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes release files for {@code upshift graph serve} from a served graph (its nodes, with edges
 * and conditional edges as previous), for load tests: {@code GraphReleases GRAPH.json ARCH OUTDIR}.
 */
public final class GraphReleases {

    public static void main(String[] args) throws Exception {
        int n = write(Path.of(args[0]), args[1], Path.of(args[2]));
        System.out.println("wrote " + n + " releases to " + args[2]);
    }

    /** Writes one release file per node of the served graph {@code graphJson}; returns how many. */
    static int write(Path graphJson, String arch, Path dir) throws Exception {
        Graph g = GraphJson.read(Files.readAllBytes(graphJson), 256 << 20);
        Path out = Files.createDirectories(dir);
        Map<String, List<String>> previous = new HashMap<>();
        for (int[] e : g.edges())
            previous.computeIfAbsent(g.nodes().get(e[1]).version(), k -> new ArrayList<>())
                    .add(g.nodes().get(e[0]).version());
        for (ConditionalEdges c : g.conditionalEdges()) {
            for (ConditionalEdges.Edge e : c.edges())
                previous.computeIfAbsent(e.to(), k -> new ArrayList<>()).add(e.from());
        }
        ObjectMapper json = Mappers.JSON;
        for (GraphNode n : g.nodes()) {
            ObjectNode r = json.createObjectNode();
            r.put("version", n.version());
            previous.getOrDefault(n.version(), List.of()).forEach(r.putArray("previous")::add);
            ObjectNode meta = r.putObject("metadata");
            n.metadata()
                    .forEach(
                            (k, v) -> {
                                if (!k.startsWith("io.openshift.upgrades.graph.")) meta.put(k, v);
                            });
            r.put("architecture", arch);
            r.put("payload", n.payload());
            Files.write(out.resolve(n.version() + ".json"), json.writeValueAsBytes(r));
        }
        return g.nodes().size();
    }
}
