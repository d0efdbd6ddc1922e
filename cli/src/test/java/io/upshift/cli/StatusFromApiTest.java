package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.upshift.api.update.UpdateStatus;
import io.upshift.status.command.StatusCommand;
import io.upshift.status.controller.UpdateStatusController;
import io.upshift.status.synthetic.SyntheticCluster;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.ServiceAccount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift status --from-api} renders the controller's insight objects: the same text as a
 * local assessment.
 */
@Tag("e2e")
class StatusFromApiTest {
    private static final Instant NOW = Instant.parse("2026-11-20T10:00:00Z");

    @TempDir Path dir;

    @AfterEach
    void realClock() {
        StatusCommand.clock = Clock.systemUTC();
    }

    @Test
    void aMidUpdateClusterReadsTheSameBothWays() throws IOException {
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        StatusCommand.clock = clock;
        try (EmbeddedApiServer server =
                new EmbeddedApiServer()
                        .installCrds(
                                "updatestatuses.update.openshift.io",
                                "clusterversionprogressinsights.update.openshift.io",
                                "clusteroperatorprogressinsights.update.openshift.io",
                                "machineconfigpoolprogressinsights.update.openshift.io",
                                "nodeprogressinsights.update.openshift.io",
                                "healthinsights.update.openshift.io")
                        .installRbac()) {
            for (HasMetadata o : new SyntheticCluster(200, 2, 12, 1.0, NOW).objects()) {
                server.client().resource(o).create();
            }
            try (UpdateStatusController controller =
                    new UpdateStatusController(
                            server.client("upshift-operator", ServiceAccount.UPSHIFT),
                            clock,
                            Duration.ofSeconds(1),
                            Duration.ofMinutes(10),
                            Optional::empty)) {
                controller.start();
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .until(
                                () -> {
                                    UpdateStatus us =
                                            server.client()
                                                    .resources(UpdateStatus.class)
                                                    .withName(UpdateStatus.NAME)
                                                    .get();
                                    return us != null && us.getStatus() != null;
                                });
                controller.evaluate(); // after the evaluation under way: everything written
            }
            String kubeconfig =
                    Files.writeString(dir.resolve("kubeconfig"), server.kubeconfig()).toString();
            for (String details :
                    new String[] {
                        "none", "all", "none --estimate=upshift", "all --estimate=upshift"
                    }) {
                String[] options = details.split(" ");
                CliRun.Result local = run(args(kubeconfig, options));
                CliRun.Result fromApi = run(args(kubeconfig, options, "--from-api"));
                assertThat(local.code()).as(local.err()).isZero();
                assertThat(fromApi.code()).as(fromApi.err()).isZero();
                // the controller here reads no alerts; the local status says it could not read
                // the cluster's (it has no monitoring), as oc does, before the same text
                assertThat(local.out()).startsWith(ControllerNotRunningTest.NO_ALERTS + "\n");
                assertThat(fromApi.out())
                        .isEqualTo(local.out().substring(local.out().indexOf('\n') + 1));
                assertThat(local.out()).contains("Worker Pool Nodes: worker", "is degraded");
                if (details.contains("upshift")) {
                    assertThat(local.out())
                            .containsPattern("WORKER POOL +ASSESSMENT +COMPLETION +STATUS +EST\n");
                }
            }
        }
    }

    private static String[] args(String kubeconfig, String[] options, String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of("status", "--kubeconfig", kubeconfig, "--details=" + options[0]));
        args.addAll(Arrays.asList(options).subList(1, options.length));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }
}
