package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The README's main command, small: it installs, updates, waits for every node and says so. */
@Tag("e2e")
class DemoCommandTest {

    @Test
    void installsUpdatesAndRollsEveryNode() {
        CliRun.Result r =
                CliRun.run(
                        "demo",
                        "--operators",
                        "4",
                        "--run-levels",
                        "2",
                        "--rollout-seconds",
                        "0.3",
                        "--masters",
                        "1",
                        "--workers",
                        "2",
                        "--plain");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains(
                        "Installed 4.18.1 in ",
                        ", all 3 nodes on it. Requesting the update to 4.18.2.")
                .contains("MachineConfigPool master: 1 of 1 nodes updated, 0 unavailable")
                .contains("MachineConfigPool worker: 2 of 2 nodes updated, 0 unavailable")
                .contains("ClusterVersion Progressing=False: Cluster version is 4.18.2")
                .containsPattern(
                        "Updated 4\\.18\\.1 -> 4\\.18\\.2 in [0-9.]+ s; the simulated work's"
                                + " critical path is [0-9.]+ s\\. Controller restarts: 1 \\(0"
                                + " deliberate kills\\)\\.")
                .containsPattern(
                        "All 3 nodes run 4\\.18\\.2 after [0-9.]+ s\\.\n"
                                + "estimate: at 10% (said [0-9.]+ s|said none yet), at 50% ([0-9.]+"
                                + " s|none yet), at 90% ([0-9.]+ s|none yet); took [0-9.]+ s\n");
        Matcher work = Pattern.compile(" in (\\S+upshift-demo-\\d+)\n").matcher(r.out());
        assertThat(work.find()).as(r.out()).isTrue();
        assertThat(Path.of(work.group(1)))
                .as("the work directory, removed at the end")
                .doesNotExist();
    }

    @Test
    void aConfigChangeUnderANonePolicyUpdatesEveryNodeWithoutDrainingOrRebootingAny() {
        CliRun.Result r =
                CliRun.run(
                        "demo",
                        "--operators",
                        "4",
                        "--run-levels",
                        "2",
                        "--rollout-seconds",
                        "0.3",
                        "--masters",
                        "1",
                        "--workers",
                        "2",
                        "--plain",
                        "--config-change");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains(
                        "Changing /etc/upshift-demo/motd on every node, under a node disruption"
                                + " policy of None for it ...");
        List<String> lines = r.out().strip().lines().toList();
        assertThat(lines.get(lines.size() - 1))
                .as(r.out())
                .isEqualTo("config change: 3 nodes updated, 0 drained, 0 rebooted");
        System.out.println(lines.get(lines.size() - 1));
    }

    @Test
    void aCanaryPausesTheWorkerPoolWhenItsGateFiresAndIsTakenBack() {
        CliRun.Result r =
                CliRun.run(
                        "demo",
                        "--operators",
                        "4",
                        "--run-levels",
                        "2",
                        "--rollout-seconds",
                        "0.3",
                        "--masters",
                        "1",
                        "--workers",
                        "2",
                        "--plain",
                        "--canary");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains(
                        "canary: pod default/backup-0 (app=backup) starts during the canary's soak")
                .containsPattern(
                        "canary: worker-0, the canary, runs rendered-worker-\\S+; RolloutHeld=True"
                                + " SoakTime since \\S+: Soaking node worker-0 for 1h")
                .containsPattern(
                        "canary: pool worker paused itself \\(spec.paused=true\\); RolloutHeld=True"
                                + " CanaryHalted since \\S+: Paused by its canaries"
                                + " \\(upshift.io/canaries: 1\\) while nodes worker-0 took"
                                + " MachineConfig rendered-worker-\\S+: Pod default/backup-0"
                                + " matches the health gate \"app=backup\"")
                .containsPattern("canary: worker-0 is back on rendered-worker-")
                .contains("canary: all 2 workers run rendered-worker-");
    }

    @Test
    void aCanaryNeedsTwoWorkers() {
        CliRun.Result r = CliRun.run("demo", "--workers", "1", "--canary");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--canary needs a worker pool of at least 2 nodes");
    }

    @Test
    void aConfigChangeNeedsNodes() {
        CliRun.Result r = CliRun.run("demo", "--masters", "0", "--workers", "0", "--config-change");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--config-change needs nodes");
    }

    @Test
    void workersWithoutAControlPlaneAreRefused() {
        CliRun.Result r = CliRun.run("demo", "--masters", "0", "--workers", "2");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .contains(
                        "worker nodes need a control plane: give --masters at least 1, or --workers"
                                + " 0 too");
    }
}
