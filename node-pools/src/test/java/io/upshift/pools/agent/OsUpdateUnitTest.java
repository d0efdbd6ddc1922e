package io.upshift.pools.agent;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host unit deploy/host/upshift-os-update.service, its commands run as systemd would run them
 * (in /etc/upshift, "$$" read as "$") against a recording rpm-ostree: what it asks of rpm-ostree
 * for the inputs the agent writes, and that it asks nothing again for what it applied already.
 */
@Tag("e2e")
class OsUpdateUnitTest {
    static final Path UNIT = Path.of("../deploy/host/upshift-os-update.service");

    @TempDir Path dir;

    List<String> run() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin")), log = dir.resolve("rpm-ostree.log");
        Path fake = bin.resolve("rpm-ostree");
        Files.writeString(fake, "#!/bin/sh\necho \"rpm-ostree $*\" >> " + log + "\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.deleteIfExists(log);
        for (String line : Files.readAllLines(UNIT)) {
            if (!line.startsWith("ExecStart=")) continue;
            String command = line.substring("ExecStart=".length());
            assertThat(command).startsWith("/bin/sh -c '").endsWith("'");
            String script =
                    command.substring("/bin/sh -c '".length(), command.length() - 1)
                            .replace("$$", "$");
            ProcessBuilder pb =
                    new ProcessBuilder("/bin/sh", "-c", script)
                            .directory(dir.resolve("etc/upshift").toFile())
                            .redirectErrorStream(true);
            pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
            Process p = pb.start();
            String output = new String(p.getInputStream().readAllBytes(), UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(script + "\n" + output).isZero();
        }
        return Files.exists(log) ? Files.readAllLines(log) : new ArrayList<>();
    }

    void inputs(String image, String kargs, String extensions, String kernelType) throws Exception {
        Path etc = Files.createDirectories(dir.resolve("etc/upshift"));
        Files.writeString(etc.resolve("os-image"), image + "\n");
        Files.writeString(etc.resolve("kernel-arguments"), kargs);
        Files.writeString(etc.resolve("extensions"), extensions);
        Files.writeString(etc.resolve("kernel-type"), kernelType + "\n");
    }

    @Test
    void asksRpmOstreeForWhatChangedOnly() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "no /bin/sh");
        String base = "kernel kernel-core kernel-modules kernel-modules-core kernel-modules-extra";
        String rt =
                "kernel-rt-core --install kernel-rt-modules --install kernel-rt-modules-extra"
                        + " --install kernel-rt-kvm";

        inputs("quay.example/os:2", "nosmt\nhugepages=4\n", "usbguard\nkerberos\n", "realtime");
        assertThat(run())
                .containsExactly(
                        "rpm-ostree rebase --experimental"
                                + " ostree-unverified-registry:quay.example/os:2",
                        "rpm-ostree kargs --append=nosmt --append=hugepages=4",
                        "rpm-ostree override remove " + base + " --install " + rt,
                        "rpm-ostree update --install usbguard --install krb5-workstation --install"
                                + " libkadm5");

        inputs("", "hugepages=4\nquiet\n", "usbguard\n", "default");
        assertThat(run())
                .containsExactly(
                        "rpm-ostree kargs --delete-if-present=nosmt --append=quiet",
                        "rpm-ostree override reset "
                                + base
                                + " --uninstall "
                                + rt.replace("--install", "--uninstall"),
                        "rpm-ostree update --uninstall krb5-workstation --uninstall libkadm5");

        assertThat(run()).as("applied already").isEmpty();
    }
}
