package io.upshift.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import io.upshift.api.json.Mappers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What deploy/ runs, held to a hardened pod's rules: every pod asks for the RuntimeDefault seccomp
 * profile; every container that is not privileged drops all capabilities, may not escalate, runs as
 * non-root with a read-only root file system; and a NetworkPolicy selects every pod.
 */
class DeployHardeningTest {

    static final Path DEPLOY = Path.of("../deploy");

    @Test
    void everyPodIsHardenedAndSelectedByANetworkPolicy() throws Exception {
        List<JsonNode> objects = objects();
        List<JsonNode> policies =
                objects.stream()
                        .filter(o -> o.path("kind").asText().equals("NetworkPolicy"))
                        .toList();
        int workloads = 0;
        for (JsonNode o : objects) {
            String kind = o.path("kind").asText();
            if (!kind.equals("Deployment") && !kind.equals("DaemonSet")) continue;
            workloads++;
            String name = kind + " " + o.at("/metadata/name").asText();
            JsonNode pod = o.at("/spec/template/spec");
            assertThat(pod.at("/securityContext/seccompProfile/type").asText())
                    .as(name + ": seccomp profile")
                    .isEqualTo("RuntimeDefault");
            for (JsonNode c : pod.path("containers")) {
                JsonNode sc = c.path("securityContext");
                String container = name + ", container " + c.path("name").asText();
                if (sc.path("privileged").asBoolean()) continue;
                assertThat(sc.path("readOnlyRootFilesystem").asBoolean())
                        .as(container + ": read-only root")
                        .isTrue();
                assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true))
                        .as(container + ": no privilege escalation")
                        .isFalse();
                assertThat(sc.at("/capabilities/drop").toString()).as(container).contains("ALL");
                assertThat(
                                sc.path("runAsNonRoot").asBoolean()
                                        || pod.at("/securityContext/runAsNonRoot").asBoolean())
                        .as(container + ": not root")
                        .isTrue();
            }
            JsonNode labels = o.at("/spec/template/metadata/labels");
            String namespace = o.at("/metadata/namespace").asText();
            assertThat(
                            policies.stream()
                                    .filter(
                                            p ->
                                                    p.at("/metadata/namespace")
                                                                    .asText()
                                                                    .equals(namespace)
                                                            || p.at("/metadata/namespace")
                                                                    .isMissingNode())
                                    .anyMatch(p -> selects(p.at("/spec/podSelector"), labels)))
                    .as(name + ": selected by a NetworkPolicy")
                    .isTrue();
        }
        assertThat(workloads)
                .as("the controller, the pool controller, the agent, the graph service")
                .isEqualTo(4);
    }

    private static boolean selects(JsonNode selector, JsonNode labels) {
        for (Map.Entry<String, JsonNode> e : selector.path("matchLabels").properties())
            if (!e.getValue().asText().equals(labels.path(e.getKey()).asText(null))) return false;
        for (JsonNode x : selector.path("matchExpressions"))
            if (x.path("operator").asText().equals("Exists") && !labels.has(x.path("key").asText()))
                return false;
        return true;
    }

    private static List<JsonNode> objects() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                if (f.getFileName().toString().equals("kustomization.yaml")
                        || f.startsWith(DEPLOY.resolve("crds"))) continue;
                try (MappingIterator<JsonNode> it =
                        Mappers.YAML.readerFor(JsonNode.class).readValues(f.toFile())) {
                    for (JsonNode n : it.readAll()) if (n != null && n.isObject()) out.add(n);
                }
            }
        }
        return out;
    }
}
