package io.upshift.operator.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A real host, seen through its root mounted at {@code root} (the DaemonSet mounts {@code /} at {@code /host}).
 * The boot id is the kernel's; the OS image to boot next is written to {@code /etc/upshift/os-image} for the OS
 * vendor's update unit to pick up; a reboot is {@code systemctl reboot} in the host's root.
 */
public final class SystemdHost implements HostOs {
    private final Path root;

    public SystemdHost(Path root) {
        this.root = root;
    }

    @Override
    public String bootId() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the boot id: " + e.getMessage(), e);
        }
    }

    @Override
    public void stageOsImage(String osImageUrl) {
        if (osImageUrl == null || osImageUrl.isEmpty()) return;
        new HostFiles(root).write("/etc/upshift/os-image", (osImageUrl + "\n").getBytes(), 0644);
    }

    @Override
    public void reboot() {
        try {
            Process p = new ProcessBuilder(List.of("chroot", root.toString(), "systemctl", "reboot")).inheritIO().start();
            int code = p.waitFor();
            if (code != 0) throw new IllegalStateException("systemctl reboot exited with " + code);
            Thread.sleep(Long.MAX_VALUE); // systemd stops this process as the host goes down
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reboot: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
