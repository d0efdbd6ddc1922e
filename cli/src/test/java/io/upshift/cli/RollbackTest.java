package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
import io.upshift.demo.DemoRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rollback with the CLI, to a release whose ClusterVersion CRD (OpenShift 4.13's, from the shared
 * fixtures) enumerates fewer capabilities than the cluster has enabled: status writes keep
 * succeeding, the names that CRD does not know are left out of status and named in a condition, and
 * the rollback completes.
 */
@Tag("e2e")
class RollbackTest {

    @TempDir Path dir;

    @Test
    void rollbackToAReleaseWithAnOlderCrdKeepsStatusWritable() throws Exception {
        Path crd413 =
                Path.of(
                        System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                        "crds",
                        "release-4.13",
                        "0000_00_cluster-version-operator_01_clusterversion.crd.yaml");
        Assumptions.assumeTrue(Files.exists(crd413), "shared fixtures not present");
        try (DemoRun demo =
                new DemoRun(
                                new DemoRun.Settings(4, 2, Duration.ofMillis(200), 5, dir)
                                        .withFirstReleaseCrd(crd413),
                                l -> {})
                        .start()) {
            assertThat(demo.admin().await(DemoRun.FROM, Duration.ofSeconds(60), () -> {})).isTrue();
            var reported =
                    Conditions.CLUSTER.find(
                            demo.admin().clusterVersion().getStatus().getConditions(),
                            "CapabilitiesReported");
            assertThat(reported.getStatus()).isEqualTo("False");
            assertThat(reported.getMessage()).contains("OperatorLifecycleManagerV1");

            Path kubeconfig =
                    Files.writeString(
                            dir.resolve("kubeconfig"),
                            demo.cluster().server().kubeconfig()); // the administrator's
            assertThat(run("rollback", "--kubeconfig", kubeconfig.toString()).err())
                    .startsWith(
                            "upshift: no previous version found in ClusterVersion's status.history"
                                    + " besides the current");

            demo.requestUpdate();
            assertThat(demo.admin().await(DemoRun.TO, Duration.ofSeconds(60), () -> {})).isTrue();
            assertThat(
                            Conditions.CLUSTER
                                    .find(
                                            demo.admin()
                                                    .clusterVersion()
                                                    .getStatus()
                                                    .getConditions(),
                                            "CapabilitiesReported")
                                    .getStatus())
                    .isEqualTo("True");

            CliRun.Result rollback = run("rollback", "--kubeconfig", kubeconfig.toString());
            assertThat(rollback.out())
                    .startsWith("Requested rollback from " + DemoRun.TO + " to " + DemoRun.FROM);
            assertThat(demo.admin().await(DemoRun.FROM, Duration.ofSeconds(60), () -> {})).isTrue();
            ClusterVersion cv = demo.admin().clusterVersion();
            assertThat(cv.getStatus().getHistory())
                    .extracting(UpdateHistory::getVersion)
                    .containsExactly(DemoRun.FROM, DemoRun.TO, DemoRun.FROM);
            assertThat(
                            Conditions.CLUSTER
                                    .find(cv.getStatus().getConditions(), "CapabilitiesReported")
                                    .getStatus())
                    .isEqualTo("False");
            assertThat(cv.getStatus().getCapabilities().getEnabledCapabilities())
                    .doesNotContain("OperatorLifecycleManagerV1", "MachineAPI")
                    .contains("baremetal", "NodeTuning");

            CliRun.Result upgradeView = run("upgrade", "--kubeconfig", kubeconfig.toString());
            assertThat(upgradeView.out())
                    .startsWith(
                            "Cluster version is "
                                    + DemoRun.FROM
                                    + "\n\n"
                                    + "Upstream is unset, so the cluster will use an appropriate"
                                    + " default.\n"
                                    + "Channel: stable-4.18");
        }
    }
}
