package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.upshift.status.command.StatusCommand;
import io.upshift.status.synthetic.SyntheticCluster;
import io.upshift.testkit.EmbeddedApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mid-update, with the cluster-version controller's Lease no longer renewed (its pod force-deleted,
 * a node crash), {@code upshift status} and {@code upshift upgrade} say that the controller is not
 * running and since when, before the progress that does not move; renewed again, they say nothing
 * of it.
 */
@Tag("e2e")
class ControllerNotRunningTest {
    private static final Instant NOW = Instant.parse("2026-11-20T10:00:00Z");

    static final String NO_ALERTS =
            "Unable to fetch alerts, ignoring alerts in 'Update Health':  failed to get alerts from"
                    + " Thanos: the server could not find the requested resource (get"
                    + " routes.route.openshift.io thanos-querier)";

    @TempDir Path dir;

    @AfterEach
    void realClock() {
        StatusCommand.clock = Clock.systemUTC();
    }

    private static Lease lease(Instant renewed) {
        return new LeaseBuilder()
                .withNewMetadata()
                .withNamespace("openshift-cluster-version")
                .withName("version")
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity("cluster-version-operator-7d9f")
                .withLeaseDurationSeconds(137)
                .withRenewTime(renewed.atZone(ZoneOffset.UTC))
                .withAcquireTime(renewed.minusSeconds(600).atZone(ZoneOffset.UTC))
                .endSpec()
                .build();
    }

    @Test
    void aLeaseNoLongerRenewedMidUpdateIsSaidWithSinceWhen() throws Exception {
        StatusCommand.clock = Clock.fixed(NOW, ZoneOffset.UTC);
        try (EmbeddedApiServer server = new EmbeddedApiServer()) {
            for (HasMetadata o : new SyntheticCluster(4, 1, 6, 0.5, NOW).objects())
                server.client().resource(o).create();
            server.client().resource(lease(NOW.minusSeconds(158))).create();
            String kubeconfig =
                    Files.writeString(dir.resolve("kubeconfig"), server.kubeconfig()).toString();
            String said =
                    "The cluster-version controller is not running: its Lease"
                        + " openshift-cluster-version/version was last renewed at"
                        + " 2026-11-20T09:57:22Z (2m38s ago) by cluster-version-operator-7d9f; the"
                        + " update does not move until one runs again.";

            CliRun.Result status = run("status", "--kubeconfig", kubeconfig);
            assertThat(status.code()).as(status.err()).isZero();
            // (this cluster has no monitoring: the alerts line, as oc prints it, then oc's text)
            assertThat(status.out())
                    .startsWith(said + "\n\n" + NO_ALERTS + "\n= Control Plane =\n");

            CliRun.Result upgrade = run("upgrade", "--kubeconfig", kubeconfig);
            assertThat(upgrade.code()).as(upgrade.err()).isZero();
            assertThat(upgrade.out())
                    .contains("warning: " + said + "\ninfo: An upgrade is in progress.");

            // a controller holds it again
            Lease renewed = server.client().resource(lease(NOW.minusSeconds(158))).get();
            renewed.getSpec().setRenewTime(NOW.minusSeconds(10).atZone(ZoneOffset.UTC));
            server.client().resource(renewed).update();
            assertThat(run("status", "--kubeconfig", kubeconfig).out())
                    .startsWith(NO_ALERTS + "\n= Control Plane =\n");
            assertThat(run("upgrade", "--kubeconfig", kubeconfig).out())
                    .doesNotContain("not running")
                    .contains("info: An upgrade is in progress.");
        }
    }
}
