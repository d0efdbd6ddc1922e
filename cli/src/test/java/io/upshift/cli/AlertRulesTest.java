package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/monitoring/'s alert rules, judged by Prometheus's own promtool: {@code check rules} on
 * each PrometheusRule's groups, and {@code test rules} on the suites of deploy/monitoring/tests/,
 * which feed series shaped as Upshift's metrics and say when each alert fires and resolves. Skipped
 * only where promtool is not installed (./test installs Debian's prometheus package, which has it).
 */
class AlertRulesTest {
    static final Path MONITORING = Path.of("../deploy/monitoring");
    static final Path PROMTOOL = Path.of("/usr/bin/promtool");

    /** Upstream's update alerts for the parts Upshift runs: each must be in deploy/monitoring/. */
    static final List<String> UPSTREAM =
            List.of(
                    "ClusterVersionOperatorDown",
                    "ClusterOperatorDown",
                    "ClusterOperatorDegraded",
                    "ClusterOperatorFlapping",
                    "CannotRetrieveUpdates",
                    "ClusterNotUpgradeable",
                    "UpdateAvailable",
                    "ClusterReleaseNotAccepted",
                    "CannotEvaluateConditionalUpdates",
                    "MCCDrainError",
                    "MCCPoolAlert",
                    "MCDRebootError",
                    "MCDPivotError");

    @TempDir Path dir;

    @Test
    void promtoolChecksEveryRuleFile() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PROMTOOL), "promtool is not installed");
        List<String> args = new ArrayList<>(List.of("check", "rules"));
        for (Path f : ruleFiles()) args.add(extract(f).toString());
        assertThat(promtool(args)).contains("SUCCESS").doesNotContain("FAILED");
    }

    @Test
    void promtoolUnitTestsPass() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PROMTOOL), "promtool is not installed");
        for (Path f : ruleFiles()) extract(f);
        List<String> args = new ArrayList<>(List.of("test", "rules"));
        try (Stream<Path> tests = Files.list(MONITORING.resolve("tests"))) {
            for (Path t : tests.filter(p -> p.toString().endsWith(".test.yaml")).sorted().toList())
                args.add(Files.copy(t, dir.resolve(t.getFileName())).toString());
        }
        assertThat(args).hasSizeGreaterThan(4);
        String out = promtool(args);
        assertThat(out).doesNotContain("FAILED");
    }

    @Test
    void everyRuleFileHasATestSuiteAndEveryAlertIsTested() throws Exception {
        Set<String> tested = new LinkedHashSet<>();
        for (Path f : ruleFiles()) {
            String stem = f.getFileName().toString().replace("-rules.yaml", "");
            Path suite = MONITORING.resolve("tests").resolve(stem + ".test.yaml");
            assertThat(suite).as("the promtool suite of " + f).exists();
            JsonNode tests = Mappers.YAML.readTree(Files.readString(suite)).path("tests");
            for (JsonNode t : tests)
                for (JsonNode a : t.path("alert_rule_test"))
                    if (!a.path("exp_alerts").isEmpty()) tested.add(a.path("alertname").asText());
        }
        assertThat(tested).as("alerts a suite sees firing").containsAll(alertNames());
    }

    @Test
    void upstreamsUpdateAlertsAreAllThere() throws Exception {
        assertThat(alertNames()).containsAll(UPSTREAM);
    }

    /**
     * PrometheusRule and ServiceMonitor are the Prometheus operator's kinds: deploy/ must apply on
     * a cluster without its CRDs, so they live in deploy/monitoring/, a kustomization of its own
     * that lists every file there.
     */
    @Test
    void monitoringKindsStayOutOfDeployAndInTheirOwnKustomization() throws Exception {
        JsonNode deploy =
                Mappers.YAML.readTree(Files.readString(Path.of("../deploy/kustomization.yaml")));
        for (JsonNode r : deploy.path("resources")) {
            assertThat(r.asText()).doesNotStartWith("monitoring");
            String text = Files.readString(Path.of("../deploy").resolve(r.asText()));
            assertThat(text).doesNotContain("monitoring.coreos.com");
        }
        JsonNode own =
                Mappers.YAML.readTree(Files.readString(MONITORING.resolve("kustomization.yaml")));
        List<String> listed = new ArrayList<>();
        own.path("resources").forEach(r -> listed.add(r.asText()));
        try (Stream<Path> files = Files.list(MONITORING)) {
            assertThat(listed)
                    .containsExactlyInAnyOrderElementsOf(
                            files.filter(Files::isRegularFile)
                                    .map(p -> p.getFileName().toString())
                                    .filter(
                                            n ->
                                                    n.endsWith(".yaml")
                                                            && !n.equals("kustomization.yaml"))
                                    .toList());
        }
    }

    /** Every alert name in deploy/monitoring/. */
    static Set<String> alertNames() throws IOException {
        Set<String> names = new LinkedHashSet<>();
        for (Path f : ruleFiles())
            for (JsonNode doc : documents(f))
                for (JsonNode g : doc.path("spec").path("groups"))
                    for (JsonNode r : g.path("rules"))
                        if (r.has("alert")) names.add(r.path("alert").asText());
        return names;
    }

    /** Every alerting rule of deploy/monitoring/ (its name, expression, annotations ...). */
    static List<JsonNode> alertRules() throws IOException {
        List<JsonNode> rules = new ArrayList<>();
        for (Path f : ruleFiles())
            for (JsonNode doc : documents(f))
                for (JsonNode g : doc.path("spec").path("groups"))
                    for (JsonNode r : g.path("rules")) if (r.has("alert")) rules.add(r);
        return rules;
    }

    static List<Path> ruleFiles() throws IOException {
        try (Stream<Path> files = Files.list(MONITORING)) {
            return files.filter(p -> p.getFileName().toString().endsWith("-rules.yaml"))
                    .sorted()
                    .toList();
        }
    }

    static List<JsonNode> documents(Path f) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (var it = Mappers.YAML.readerFor(JsonNode.class).readValues(Files.readString(f))) {
            while (it.hasNext()) {
                JsonNode d = (JsonNode) it.next();
                if (d != null && !d.isNull() && !d.isMissingNode()) docs.add(d);
            }
        }
        return docs;
    }

    /**
     * The groups of {@code f}'s PrometheusRules as a plain Prometheus rule file, under the same
     * name in the temporary folder (the suites name their rule files so).
     */
    private Path extract(Path f) throws IOException {
        ArrayNode groups = Mappers.YAML.createArrayNode();
        for (JsonNode doc : documents(f)) {
            assertThat(doc.path("kind").asText())
                    .as(f + " holds PrometheusRules")
                    .isEqualTo("PrometheusRule");
            doc.path("spec").path("groups").forEach(groups::add);
        }
        Path out = dir.resolve(f.getFileName());
        Files.writeString(
                out,
                Mappers.YAML.writeValueAsString(
                        Mappers.YAML.createObjectNode().set("groups", groups)));
        return out;
    }

    private String promtool(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(PROMTOOL.toString()));
        command.addAll(args);
        Process p =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("promtool ended").isTrue();
        assertThat(p.exitValue()).as("promtool " + args + ":\n" + out).isZero();
        return out;
    }
}
