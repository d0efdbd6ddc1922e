package io.upshift.operator.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The production host: what it asks of the host's systemd, and what it leaves on the host, for each outcome. */
class SystemdHostTest {

    @TempDir
    Path root;

    final List<List<String>> ran = new ArrayList<>();

    SystemdHost host(int updateExitCode, String updateOutput) {
        return new SystemdHost(root, argv -> {
            ran.add(argv);
            return argv.contains(SystemdHost.UPDATE_UNIT) ? new SystemdHost.Commands.Result(updateExitCode, updateOutput)
                    : new SystemdHost.Commands.Result(0, "");
        });
    }

    @Test
    void stagesAnImageThroughTheHostUnitOnce() throws Exception {
        SystemdHost host = host(0, "");
        host.stageOsImage("quay.example/os@sha256:2");
        assertThat(ran).containsExactly(
                List.of("chroot", root.toString(), "systemctl", "daemon-reload"),
                List.of("chroot", root.toString(), "systemctl", "start", "--wait", "upshift-os-update.service"));
        assertThat(Files.readString(root.resolve("etc/upshift/os-image"))).isEqualTo("quay.example/os@sha256:2\n");
        assertThat(Files.readString(root.resolve("etc/upshift/os-image.staged"))).isEqualTo("quay.example/os@sha256:2\n");

        ran.clear();
        host.stageOsImage("quay.example/os@sha256:2"); // an agent restarted before its reboot: nothing to do again
        host.stageOsImage("");                          // a config with no OS image
        assertThat(ran).isEmpty();
    }

    @Test
    void aFailingUnitIsAnErrorNamingItAndIsTriedAgainNextTime() {
        SystemdHost host = host(1, "pulling image\nerror: manifest unknown\n");
        assertThatThrownBy(() -> host.stageOsImage("quay.example/os@sha256:3"))
                .hasMessage("the host's upshift-os-update.service failed to switch the OS to quay.example/os@sha256:3 (exit code 1): "
                        + "pulling image | error: manifest unknown");
        assertThat(root.resolve("etc/upshift/os-image.staged")).doesNotExist();
        ran.clear();
        assertThatThrownBy(() -> host.stageOsImage("quay.example/os@sha256:3")).isInstanceOf(IllegalStateException.class);
        assertThat(ran).anySatisfy(argv -> assertThat(argv).contains("upshift-os-update.service"));
    }

    @Test
    void aMissingUnitSaysSo() {
        SystemdHost host = new SystemdHost(root, argv -> argv.contains("start")
                ? new SystemdHost.Commands.Result(5, "Failed to start upshift-os-update.service: Unit upshift-os-update.service not found.\n")
                : new SystemdHost.Commands.Result(0, ""));
        assertThatThrownBy(() -> host.stageOsImage("quay.example/os@sha256:4"))
                .hasMessageEndingWith("(exit code 5): Failed to start upshift-os-update.service: Unit upshift-os-update.service not found.");
    }

    @Test
    void aRefusedRebootIsAnError() {
        SystemdHost host = new SystemdHost(root, argv -> new SystemdHost.Commands.Result(1, "Failed to reboot: Access denied"));
        assertThatThrownBy(host::reboot).hasMessage("systemctl reboot failed (exit code 1): Failed to reboot: Access denied");
    }
}
