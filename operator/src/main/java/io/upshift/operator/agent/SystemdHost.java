package io.upshift.operator.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A real host, seen through its root mounted at {@code root} (the DaemonSet mounts {@code /} at {@code /host}); every
 * command runs chrooted into it, so it is the host's systemd that acts. The boot id is the kernel's.
 *
 * <p>The OS image switch is the host's own unit, {@value #UPDATE_UNIT}: the agent writes the image to
 * {@value #REQUESTED}, then runs the unit and waits for it to end; on rpm-ostree hosts the unit is a
 * {@code rpm-ostree rebase} to that image ({@code deploy/host/} has one, which a MachineConfig can deliver). Once the
 * unit succeeded, {@value #STAGED} names the image, so that a restarted agent does not stage it twice. A reboot is
 * {@code systemctl reboot}.
 */
public final class SystemdHost implements HostOs {
    public static final String UPDATE_UNIT = "upshift-os-update.service";
    static final String REQUESTED = "/etc/upshift/os-image";
    static final String STAGED = "/etc/upshift/os-image.staged";

    /** Runs a command on the host and waits for it. */
    public interface Commands {
        /** @return the exit code and the command's output (stdout and stderr) */
        Result run(List<String> argv);

        record Result(int code, String output) {
        }
    }

    private final Path root;
    private final HostFiles files;
    private final Commands commands;

    public SystemdHost(Path root) {
        this(root, SystemdHost::exec);
    }

    public SystemdHost(Path root, Commands commands) {
        this.root = root;
        this.files = new HostFiles(root);
        this.commands = commands;
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
        byte[] staged = files.read(STAGED);
        if (staged != null && new String(staged, StandardCharsets.UTF_8).strip().equals(osImageUrl)) return;
        files.write(REQUESTED, (osImageUrl + "\n").getBytes(StandardCharsets.UTF_8), 0644);
        systemctl("daemon-reload"); // the unit may have come with this very config
        Commands.Result r = systemctl("start", "--wait", UPDATE_UNIT);
        if (r.code() != 0) {
            throw new IllegalStateException("the host's " + UPDATE_UNIT + " failed to switch the OS to " + osImageUrl + " (exit code " + r.code() + "): "
                    + tail(r.output()));
        }
        files.write(STAGED, (osImageUrl + "\n").getBytes(StandardCharsets.UTF_8), 0644);
    }

    @Override
    public void reboot() {
        Commands.Result r = systemctl("reboot");
        if (r.code() != 0) throw new IllegalStateException("systemctl reboot failed (exit code " + r.code() + "): " + tail(r.output()));
        try {
            Thread.sleep(Long.MAX_VALUE); // systemd stops this process as the host goes down
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Commands.Result systemctl(String... args) {
        List<String> argv = new ArrayList<>(List.of("chroot", root.toString(), "systemctl"));
        argv.addAll(Arrays.asList(args));
        return commands.run(argv);
    }

    /** The last lines of a command's output: the part that says what went wrong. */
    static String tail(String output) {
        List<String> lines = output.strip().lines().toList();
        String last = String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        return last.isEmpty() ? "no output" : last;
    }

    private static Commands.Result exec(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Commands.Result(p.waitFor(), output);
        } catch (IOException e) {
            return new Commands.Result(127, "cannot run " + argv.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Commands.Result(130, "interrupted");
        }
    }
}
