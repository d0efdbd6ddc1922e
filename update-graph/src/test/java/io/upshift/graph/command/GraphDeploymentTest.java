package io.upshift.graph.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * deploy/graph-service/'s Deployment runs {@code upshift graph serve} as the command reads its
 * arguments: several replicas, releases from a registry, graph data from the checkout git-sync
 * keeps in the volume, listening on all addresses on the port its probes ask, its metrics on
 * another port the Service does not publish, no API token.
 */
class GraphDeploymentTest {

    @Test
    void theDeploymentsArgumentsAreTheCommands() throws Exception {
        JsonNode deployment =
                Mappers.YAML.readTree(
                        Files.readString(Path.of("../deploy/graph-service/deployment.yaml")));
        JsonNode pod = deployment.path("spec").path("template").path("spec");
        assertThat(deployment.path("spec").path("replicas").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isFalse();
        JsonNode graph = named(pod.path("containers"), "graph");
        List<String> args = new ArrayList<>();
        graph.path("args").forEach(a -> args.add(a.asText()));
        assertThat(args.subList(0, 2)).containsExactly("graph", "serve");

        GraphCommand.Serve serve = new GraphCommand.Serve();
        new CommandLine(serve).parseArgs(args.subList(2, args.size()).toArray(String[]::new));
        assertThat(serve.releases.repository).startsWith("docker://");
        assertThat(serve.address).isEqualTo("0.0.0.0");

        int port = named(graph.path("ports"), "http").path("containerPort").asInt();
        assertThat(serve.port).isEqualTo(port);
        assertThat(graph.path("readinessProbe").path("httpGet").path("path").asText())
                .isEqualTo("/readyz");
        assertThat(graph.path("readinessProbe").path("httpGet").path("port").asText())
                .isEqualTo("http");
        assertThat(graph.path("livenessProbe").path("httpGet").path("path").asText())
                .isEqualTo("/healthz");
        // /metrics on a port of its own, which the Service does not publish
        int metrics = named(graph.path("ports"), "metrics").path("containerPort").asInt();
        assertThat(serve.metricsPort).isEqualTo(metrics).isNotEqualTo(port);
        JsonNode service =
                Mappers.YAML.readTree(
                        Files.readString(Path.of("../deploy/graph-service/service.yaml")));
        for (JsonNode p : service.path("spec").path("ports"))
            assertThat(p.path("targetPort").asText()).isNotIn("metrics", String.valueOf(metrics));

        // the graph data is the link git-sync publishes in the volume both containers mount
        JsonNode sync = named(pod.path("containers"), "graph-data-sync");
        String root = option(sync, "--root"), link = option(sync, "--link");
        assertThat(serve.graphData).isEqualTo(Path.of(root, link));
        assertThat(mountOf(graph, root)).isEqualTo(mountOf(sync, root));
        JsonNode clone = named(pod.path("initContainers"), "graph-data-clone");
        assertThat(option(clone, "--repo")).isEqualTo(option(sync, "--repo"));
        assertThat(option(clone, "--link")).isEqualTo(link);
    }

    private static JsonNode named(JsonNode list, String name) {
        for (JsonNode n : list) if (name.equals(n.path("name").asText())) return n;
        throw new AssertionError("nothing named " + name + " in " + list);
    }

    private static String option(JsonNode container, String name) {
        for (JsonNode a : container.path("args"))
            if (a.asText().startsWith(name + "=")) return a.asText().substring(name.length() + 1);
        throw new AssertionError(container.path("name").asText() + " has no " + name);
    }

    private static String mountOf(JsonNode container, String path) {
        for (JsonNode m : container.path("volumeMounts"))
            if (path.equals(m.path("mountPath").asText())) return m.path("name").asText();
        throw new AssertionError(container.path("name").asText() + " mounts nothing at " + path);
    }
}
