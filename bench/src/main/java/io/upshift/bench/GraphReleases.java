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
        Graph g = GraphJson.read(Files.readAllBytes(Path.of(args[0])), 256 << 20);
        Path out = Files.createDirectories(Path.of(args[2]));
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
            r.put("architecture", args[1]);
            r.put("payload", n.payload());
            Files.write(out.resolve(n.version() + ".json"), json.writeValueAsBytes(r));
        }
        System.out.println("wrote " + g.nodes().size() + " releases to " + out);
    }
}
