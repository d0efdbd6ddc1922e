package io.upshift.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift demo --keep-running --kubeconfig-out FILE}: after the update, other clients
 * explore the cluster through FILE.
 */
@Tag("e2e")
class DemoKeepRunningTest {

    @Test
    void theKeptClusterAnswersUpshiftAndKubectlThroughTheKubeconfig(@TempDir Path dir)
            throws Exception {
        Path kubeconfig = dir.resolve("demo.kubeconfig");
        StringWriter out = new StringWriter(), err = new StringWriter();
        Thread demo =
                new Thread(
                        () -> {
                            var cl = Upshift.commandLine();
                            cl.setOut(new PrintWriter(out, true));
                            cl.setErr(new PrintWriter(err, true));
                            cl.execute(
                                    "demo",
                                    "--operators",
                                    "3",
                                    "--run-levels",
                                    "2",
                                    "--rollout-seconds",
                                    "0.2",
                                    "--masters",
                                    "0",
                                    "--workers",
                                    "0",
                                    "--plain",
                                    "--in-process-controller",
                                    "--keep-running",
                                    "--kubeconfig-out",
                                    kubeconfig.toString());
                        },
                        "demo");
        demo.start();
        try {
            Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
            while (!out.toString().contains("Press Ctrl+C to stop it.")
                    && demo.isAlive()
                    && Instant.now().isBefore(deadline)) Thread.sleep(200);
            assertThat(out.toString())
                    .as(err.toString())
                    .contains(
                            "Press Ctrl+C to stop it.",
                            "kubectl --kubeconfig " + kubeconfig + " get clusterversion");

            CliRun.Result upgrade = CliRun.run("upgrade", "--kubeconfig", kubeconfig.toString());
            assertThat(upgrade.code()).as(upgrade.err()).isZero();
            assertThat(upgrade.out()).startsWith("Cluster version is 4.18.2");
            CliRun.Result status = CliRun.run("status", "--kubeconfig", kubeconfig.toString());
            assertThat(status.code()).as(status.err()).isZero();
            assertThat(status.out()).isEqualTo("The cluster is not updating.\n");

            Assumptions.assumeTrue(
                    onPath("kubectl"), "kubectl is not installed (./test installs it)");
            Process kubectl =
                    new ProcessBuilder(
                                    "kubectl",
                                    "--kubeconfig",
                                    kubeconfig.toString(),
                                    "get",
                                    "clusterversion",
                                    "version",
                                    "-o",
                                    "jsonpath={.status.desired.version}")
                            .redirectErrorStream(true)
                            .start();
            assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(kubectl.getInputStream().readAllBytes(), UTF_8))
                    .isEqualTo("4.18.2");
            Process table =
                    new ProcessBuilder(
                                    "kubectl",
                                    "--kubeconfig",
                                    kubeconfig.toString(),
                                    "get",
                                    "clusterversions")
                            .redirectErrorStream(true)
                            .start();
            assertThat(table.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(table.getInputStream().readAllBytes(), UTF_8))
                    .contains("version");
        } finally {
            demo.interrupt();
            demo.join(60_000);
        }
        assertThat(demo.isAlive()).isFalse();
        assertThat(out.toString()).contains("Stopping the cluster.");
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) return true;
        }
        return false;
    }
}
