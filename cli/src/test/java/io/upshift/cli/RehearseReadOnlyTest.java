package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.upshift.rehearsal.synthetic.LevelCluster;
import io.upshift.rehearsal.synthetic.LevelReleases;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.RequestLog;
import io.upshift.testkit.ServiceAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift rehearse --kubeconfig} reads and never writes: on the embedded API server, as the
 * ServiceAccount of deploy/rehearse-rbac.yaml (get and list only, enforced as a real server
 * enforces RBAC), it finds what the snapshot finds, every request it sends is a GET, and none is
 * refused.
 */
@Tag("e2e")
class RehearseReadOnlyTest {
    @TempDir Path dir;

    @Test
    void aLiveRehearsalOnlyReadsWithinItsRole() throws Exception {
        LevelReleases releases = new LevelReleases(dir.resolve("releases"));
        String from = releases.publish(LevelCluster.FROM, true);
        String to = releases.publish(LevelCluster.TO, true);
        try (EmbeddedApiServer server = new EmbeddedApiServer().installRbac()) {
            for (String ns : List.of("shop", "monitoring"))
                server.client()
                        .namespaces()
                        .resource(
                                new NamespaceBuilder()
                                        .withNewMetadata()
                                        .withName(ns)
                                        .endMetadata()
                                        .build())
                        .create();
            for (HasMetadata o :
                    new LevelCluster(20, from, to, Instant.parse("2026-11-20T10:00:00Z")).objects())
                server.client().resource(o).create();
            Path kubeconfig =
                    Files.writeString(
                            dir.resolve("kubeconfig"), server.kubeconfig(ServiceAccount.REHEARSE));
            server.requests().clear();

            CliRun.Result r =
                    run(
                            "rehearse",
                            "--kubeconfig",
                            kubeconfig.toString(),
                            "--to",
                            LevelCluster.TO,
                            "--plan-only");

            assertThat(r.code()).as(r.err()).isEqualTo(1);
            assertThat(r.out())
                    .contains("read from the API server at " + server.url())
                    .contains("Signature: verified")
                    .contains(
                            "node agent, pool worker, nodes worker-03, worker-07:\n"
                                    + "  Reason: DrainBlocked")
                    .doesNotContain("The rehearsal went without");
            List<RequestLog.Request> mine =
                    server.requests().matching(q -> q.userAgent().startsWith("upshift-rehearse"));
            assertThat(mine).hasSizeGreaterThan(8);
            assertThat(mine).allSatisfy(q -> assertThat(q.method()).isEqualTo("GET"));
            assertThat(server.requests().matching(RequestLog.Request::isWrite)).isEmpty();
            assertThat(server.dispatcher().accessRefusals()).isEmpty();
        }
    }

    @Test
    void anAccountWithoutTheRoleIsRefusedInOneLine() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer().installRbac()) {
            for (HasMetadata o :
                    new LevelCluster(
                                    3,
                                    "quay.io/x/r@sha256:" + "a".repeat(64),
                                    "quay.io/x/r@sha256:" + "b".repeat(64),
                                    Instant.parse("2026-11-20T10:00:00Z"))
                            .objects())
                if (!o.getKind().equals("Pod") && !o.getKind().equals("PodDisruptionBudget"))
                    server.client().resource(o).create();
            Path kubeconfig =
                    Files.writeString(
                            dir.resolve("kubeconfig"),
                            server.kubeconfig(ServiceAccount.MACHINE_CONFIG_DAEMON));
            CliRun.Result r =
                    run("rehearse", "--kubeconfig", kubeconfig.toString(), "--to", "4.18.2");
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.err())
                    .isEqualTo(
                            "upshift: cannot read clusterversions.config.openshift.io/version: HTTP"
                                    + " 403 forbidden: the account may not read it\n");
        }
    }
}
