package io.upshift.pools.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.pools.model.HostBoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production host: what it asks of the host's systemd, and what it leaves on the host, for each
 * outcome.
 */
class SystemdHostTest {

    @TempDir Path root;

    final List<List<String>> ran = java.util.Collections.synchronizedList(new ArrayList<>());

    SystemdHost host(int updateExitCode, String updateOutput) {
        return new SystemdHost(
                root,
                argv -> {
                    ran.add(argv);
                    return argv.contains(SystemdHost.UPDATE_UNIT)
                            ? new SystemdHost.Commands.Result(updateExitCode, updateOutput)
                            : new SystemdHost.Commands.Result(0, "");
                });
    }

    @Test
    void aNodeImageTheHostFellBackFromIsTheBootsFailureAndIsNotStagedAgain() throws Exception {
        SystemdHost host = host(0, "");
        String bad = "registry.example/node@sha256:" + "2".repeat(64);
        host.stageOs(OsTarget.image(bad));
        assertThat(host.bootFailure()).isEmpty(); // nothing said by the host: booted as staged

        // the host's check fell back (deploy/host/node-image writes this file)
        String words = "node image " + bad + " failed: the kubelet exited; back on x@sha256:1";
        Files.createDirectories(root.resolve("var/lib/upshift/node-image"));
        Files.writeString(root.resolve("var/lib/upshift/node-image/failed"), words + "\n");
        assertThat(host.bootFailure()).contains(words);
        ran.clear();
        assertThatThrownBy(() -> host.stageOs(OsTarget.image(bad))).hasMessage(words);
        assertThat(ran).isEmpty();
        // another image is none of that failure's business
        host.stageOs(OsTarget.image("registry.example/node@sha256:" + "3".repeat(64)));
        assertThat(host.bootFailure()).isEmpty();

        // staged, and still staged after the boot: the activation unit did not run
        Files.createDirectories(root.resolve("var/lib/upshift/node-image/staged"));
        Files.writeString(
                root.resolve("var/lib/upshift/node-image/staged/ref"),
                "registry.example/node@sha256:" + "3".repeat(64) + "\n");
        Files.writeString(root.resolve("var/lib/upshift/node-image/staged/ready"), "");
        assertThat(host.bootFailure().orElseThrow())
                .contains("was staged but not put in place at boot");
    }

    @Test
    void stagesAnImageThroughTheHostUnitOnce() throws Exception {
        SystemdHost host = host(0, "");
        host.stageOs(OsTarget.image("quay.example/os@sha256:2"));
        assertThat(ran)
                .containsExactly(
                        List.of("chroot", root.toString(), "systemctl", "daemon-reload"),
                        List.of(
                                "chroot",
                                root.toString(),
                                "systemctl",
                                "start",
                                "--wait",
                                "upshift-os-update.service"));
        assertThat(Files.readString(root.resolve("etc/upshift/os-image")))
                .isEqualTo("quay.example/os@sha256:2\n");
        assertThat(Files.readString(root.resolve("etc/upshift/os-image.staged")))
                .isEqualTo("quay.example/os@sha256:2\n");

        ran.clear();
        host.stageOs(
                OsTarget.image(
                        "quay.example/os@sha256:2")); // an agent restarted before its reboot:
        // nothing to do again
        host.stageOs(OsTarget.image("")); // a config with no OS image
        assertThat(ran).isEmpty();
    }

    @Test
    void aFailingUnitIsAnErrorNamingItAndIsTriedAgainNextTime() {
        SystemdHost host = host(1, "pulling image\nerror: manifest unknown\n");
        assertThatThrownBy(() -> host.stageOs(OsTarget.image("quay.example/os@sha256:3")))
                .hasMessage(
                        "the host's upshift-os-update.service failed to switch the OS to"
                                + " quay.example/os@sha256:3 (exit code 1): pulling image | error:"
                                + " manifest unknown");
        assertThat(root.resolve("etc/upshift/os-image.staged")).doesNotExist();
        ran.clear();
        assertThatThrownBy(() -> host.stageOs(OsTarget.image("quay.example/os@sha256:3")))
                .isInstanceOf(IllegalStateException.class);
        assertThat(ran).anySatisfy(argv -> assertThat(argv).contains("upshift-os-update.service"));
    }

    @Test
    void aMissingUnitSaysSo() {
        SystemdHost host =
                new SystemdHost(
                        root,
                        argv ->
                                argv.contains("start")
                                        ? new SystemdHost.Commands.Result(
                                                5,
                                                "Failed to start upshift-os-update.service: Unit"
                                                        + " upshift-os-update.service not found.\n")
                                        : new SystemdHost.Commands.Result(0, ""));
        assertThatThrownBy(() -> host.stageOs(OsTarget.image("quay.example/os@sha256:4")))
                .hasMessageEndingWith(
                        "(exit code 5): Failed to start upshift-os-update.service: Unit"
                                + " upshift-os-update.service not found.");
    }

    @Test
    void kernelArgumentsExtensionsAndKernelTypeAreTheUnitsInputsBesideTheImage() throws Exception {
        SystemdHost host = host(0, "");
        host.stageOs(
                new OsTarget(
                        "quay.example/os@sha256:2",
                        List.of("nosmt", "hugepages=4"),
                        List.of("usbguard"),
                        "realtime"));
        assertThat(Files.readString(root.resolve("etc/upshift/os-image")))
                .isEqualTo("quay.example/os@sha256:2\n");
        assertThat(Files.readString(root.resolve("etc/upshift/kernel-arguments")))
                .isEqualTo("nosmt\nhugepages=4\n");
        assertThat(Files.readString(root.resolve("etc/upshift/extensions")))
                .isEqualTo("usbguard\n");
        assertThat(Files.readString(root.resolve("etc/upshift/kernel-type")))
                .isEqualTo("realtime\n");
        assertThat(Files.readString(root.resolve("etc/upshift/os-image.staged")))
                .isEqualTo(
                        "quay.example/os@sha256:2\n"
                                + "kernel-arguments: nosmt hugepages=4\n"
                                + "extensions: usbguard\n"
                                + "kernel-type: realtime\n");
        assertThat(ran).hasSize(2);

        ran.clear();
        host.stageOs(
                new OsTarget(
                        "quay.example/os@sha256:2",
                        List.of("nosmt", "hugepages=4"),
                        List.of("usbguard"),
                        "realtime"));
        assertThat(ran).as("staged already").isEmpty();
        host.stageOs(OsTarget.image("quay.example/os@sha256:2"));
        assertThat(ran)
                .as("the arguments, extension and kernel taken away: the unit runs again")
                .hasSize(2);
        assertThat(Files.readString(root.resolve("etc/upshift/kernel-arguments"))).isEmpty();
        assertThat(Files.readString(root.resolve("etc/upshift/kernel-type")))
                .isEqualTo("default\n");
    }

    @Test
    void aFailureNamesWhatWasAsked() {
        SystemdHost host = host(1, "error: kargs");
        assertThatThrownBy(() -> host.stageOs(new OsTarget("", List.of("nosmt"), List.of(), "")))
                .hasMessage(
                        "the host's upshift-os-update.service failed to switch the OS to the booted"
                            + " image with kernel arguments [nosmt] (exit code 1): error: kargs");
    }

    @Test
    void reloadRestartAndDaemonReloadAreTheHostsSystemctl() {
        SystemdHost host =
                new SystemdHost(
                        root,
                        argv -> {
                            ran.add(argv);
                            return argv.contains("restart")
                                    ? new SystemdHost.Commands.Result(
                                            1, "Job for crio.service failed.")
                                    : new SystemdHost.Commands.Result(0, "");
                        });
        host.reloadUnit("crio.service");
        host.daemonReload();
        assertThat(ran)
                .containsExactly(
                        List.of("chroot", root.toString(), "systemctl", "reload", "crio.service"),
                        List.of("chroot", root.toString(), "systemctl", "daemon-reload"));
        assertThatThrownBy(() -> host.restartUnit("crio.service"))
                .hasMessage(
                        "systemctl restart crio.service failed (exit code 1): Job for crio.service"
                                + " failed.");
    }

    @Test
    void aRefusedRebootIsAnError() {
        SystemdHost host =
                new SystemdHost(
                        root,
                        argv ->
                                new SystemdHost.Commands.Result(
                                        1, "Failed to reboot: Access denied"));
        assertThatThrownBy(host::reboot)
                .hasMessage(
                        "systemctl reboot failed (exit code 1): Failed to reboot: Access denied");
    }

    @Test
    void theBootIsTheHostsBootIdAndAMarkerInItsRunWhichARestartedAgentFindsAgain()
            throws Exception {
        Files.createDirectories(root.resolve("proc/sys/kernel/random"));
        Files.writeString(root.resolve("proc/sys/kernel/random/boot_id"), "host-boot-1\n");
        Files.createDirectories(root.resolve("run"));
        HostBoot first = host(0, "").boot();
        assertThat(first.bootId()).isEqualTo("host-boot-1");
        assertThat(first.runId()).isNotEmpty();
        assertThat(Files.readString(root.resolve("run/upshift/boot")).strip())
                .isEqualTo(first.runId());
        assertThat(new SystemdHost(root, argv -> null).boot())
                .as("another agent in the same boot")
                .isEqualTo(first);

        // the host rebooted: its /run starts empty (and here its boot id stays, as the kernel's
        // would in a container machine whose manager gives it none of its own)
        Files.delete(root.resolve("run/upshift/boot"));
        HostBoot second = host(0, "").boot();
        assertThat(second.bootId()).isEqualTo("host-boot-1");
        assertThat(first.otherThan(second)).isTrue();
    }

    @Test
    void aRootWithoutProcOrRunFallsBackToThisProcesssBootId() {
        HostBoot boot = host(0, "").boot();
        assertThat(boot.runId()).isEmpty();
        assertThat(boot.bootId()).isNotEmpty(); // this machine's, read from /proc
        assertThat(root.resolve("run")).doesNotExist();
    }

    @Test
    void anAgentStoppedWhileItsHostGoesDownNeverReturnsFromTheReboot() throws Exception {
        SystemdHost host = host(0, "");
        var returned = new java.util.concurrent.atomic.AtomicBoolean();
        var interrupted = new java.util.concurrent.atomic.AtomicBoolean();
        Thread agent =
                new Thread(
                        () -> {
                            try {
                                host.reboot();
                                returned.set(true);
                            } catch (InterruptedException e) {
                                interrupted.set(true);
                            }
                        });
        agent.start();
        org.awaitility.Awaitility.await()
                .until(
                        () ->
                                ran.contains(
                                        List.of("chroot", root.toString(), "systemctl", "reboot")));
        agent.interrupt();
        agent.join(5000);
        assertThat(returned).isFalse();
        assertThat(interrupted).isTrue();
    }
}
