package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.upshift.status.snapshot.SnapshotDump;
import io.upshift.status.synthetic.SyntheticCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input: one line on stderr naming the file, resource and field; exit code 2; nothing on
 * stdout.
 */
@EnableKubernetesMockClient
@Tag("e2e")
class StatusErrorsTest {
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir Path dir;

    private Path snapshot() throws IOException {
        SnapshotDump.write(
                dir,
                new SyntheticCluster(4, 1, 6, 0.5, Instant.parse("2026-11-20T10:00:00Z"))
                        .objects());
        return dir;
    }

    @Test
    void aValidSnapshotRenders() throws IOException {
        CliRun.Result r = run("status", "--snapshot", snapshot().toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("= Control Plane =\n");
    }

    @Test
    void malformedYamlNamesTheFileAndLine() throws IOException {
        snapshot();
        Files.writeString(
                dir.resolve("nodes.yaml"), "apiVersion: v1\nkind: List\nitems: [\n  - {name: x\n");
        CliRun.Result r = run("status", "--snapshot", dir.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err())
                .startsWith("upshift: " + dir.resolve("nodes.yaml") + ": line ")
                .contains("not valid YAML")
                .hasLineCount(1);
    }

    @Test
    void anUnknownEnumValueNamesResourceAndField() throws IOException {
        snapshot();
        Path cv = dir.resolve("clusterversions.yaml");
        Files.writeString(
                cv, Files.readString(cv).replaceFirst("state: \"?Partial\"?", "state: Done"));
        CliRun.Result r = run("status", "--snapshot", dir.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo(
                        "upshift: "
                                + cv
                                + ": ClusterVersion version: status.history[0].state: unknown value"
                                + " \"Done\" (expected one of Completed, Partial)\n");
    }

    @Test
    void aSnapshotWithoutClusterVersionSaysSo() throws IOException {
        snapshot();
        Files.delete(dir.resolve("clusterversions.yaml"));
        CliRun.Result r = run("status", "--snapshot", dir.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("no ClusterVersion found").hasLineCount(1);
    }

    @Test
    void aMissingMockSiblingIsNamedAsGiven() throws IOException {
        Path cv = dir.resolve("case-cv.yaml");
        Files.copy(snapshot().resolve("clusterversions.yaml"), cv);
        CliRun.Result r = run("status", "--mock-clusterversion", cv.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo("upshift: " + dir.resolve("case-co.yaml") + ": no such file\n");
    }

    @Test
    void anApiServerThatRefusesAccessIsNamed() throws IOException {
        server.expect()
                .get()
                .withPath("/apis/config.openshift.io/v1/clusterversions/version")
                .andReturn(
                        403,
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\",\"code\":403}")
                .always();
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(
                kubeconfig,
                """
                apiVersion: v1
                kind: Config
                clusters: [{name: mock, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
                users: [{name: me, user: {token: secret}}]
                contexts: [{name: mock, context: {cluster: mock, user: me}}]
                current-context: mock
                """
                        .formatted(client.getConfiguration().getMasterUrl()));
        CliRun.Result r = run("status", "--kubeconfig", kubeconfig.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo(
                        "upshift: cannot read clusterversions.config.openshift.io/version: HTTP 403"
                                + " forbidden: the account may not read it\n");
    }

    @Test
    void anUnknownDetailsValueIsRejected() {
        CliRun.Result r = run("status", "--details=everything", "--snapshot", dir.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo(
                        "upshift: invalid value for --details: everything (must be one of none,"
                                + " all, nodes, health, operators)\n");
    }

    @Test
    void anUnknownEstimateValueIsRejected() {
        CliRun.Result r = run("status", "--estimate=mine", "--snapshot", dir.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo(
                        "upshift: invalid value for --estimate: mine (must be one of oc,"
                                + " upshift)\n");
    }
}
