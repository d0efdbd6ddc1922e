package io.upshift.pools.agent;

import io.upshift.pools.model.HostBoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A real host, seen through its root mounted at {@code root} (the DaemonSet mounts {@code /} at
 * {@code /host}, submounts and all); every command runs chrooted into it, so it is the host's
 * systemd that acts. The boot is told as the host tells it ({@link HostBoot}): its boot id read
 * through the host's own {@code /proc} (under the root; the agent's own {@code /proc} only where
 * the root has none), which on a container machine is the one its manager gives each start rather
 * than the kernel's, and a marker the agent keeps in the host's {@code /run}, which every boot
 * empties.
 *
 * <p>The OS switch is the host's own unit, {@value #UPDATE_UNIT}: the agent writes its inputs
 * beside each other in {@code /etc/upshift} (the image to {@value #REQUESTED}, the kernel arguments
 * and extensions one a line to {@value #KERNEL_ARGUMENTS} and {@value #EXTENSIONS}, the kernel type
 * to {@value #KERNEL_TYPE}), then runs the unit and waits for it to end; on rpm-ostree hosts the
 * unit rebases to the image and changes kernel arguments, kernel and extensions on the new
 * deployment ({@code deploy/host/} has one, which a MachineConfig can deliver). Once the unit
 * succeeded, {@value #STAGED} records what it staged, so that a restarted agent does not stage it
 * twice. A reboot is {@code systemctl reboot}; the systemd operations of a change without a reboot
 * are {@code systemctl reload}, {@code restart} and {@code daemon-reload}.
 */
public final class SystemdHost implements HostOs {
    public static final String UPDATE_UNIT = "upshift-os-update.service";
    static final String REQUESTED = "/etc/upshift/os-image";
    static final String STAGED = "/etc/upshift/os-image.staged";
    static final String KERNEL_ARGUMENTS = "/etc/upshift/kernel-arguments";
    static final String EXTENSIONS = "/etc/upshift/extensions";
    static final String KERNEL_TYPE = "/etc/upshift/kernel-type";
    static final String BOOT_ID = "/proc/sys/kernel/random/boot_id";

    /** The node-image slots of deploy/host/node-image (hosts without rpm-ostree). */
    static final String NODE_IMAGE = "/var/lib/upshift/node-image";

    /** Runs a command on the host and waits for it. */
    public interface Commands {
        /**
         * @return the exit code and the command's output (stdout and stderr)
         */
        Result run(List<String> argv);

        record Result(int code, String output) {}
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
    public HostBoot boot() {
        return new HostBoot(bootId(), runId());
    }

    /** The host's boot id, or empty when neither the host's nor this process's /proc shows one. */
    private String bootId() {
        Path hosts = files.resolve(BOOT_ID);
        Path read = Files.isReadable(hosts) ? hosts : Path.of(BOOT_ID);
        try {
            return Files.readString(read).strip();
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * The id of this boot's marker in the host's /run, made by the first agent of the boot that
     * asks (and kept by those after it); empty when the root has no /run.
     */
    private String runId() {
        if (!Files.isDirectory(files.resolve("/run"))) return "";
        Path marker = files.resolve(HostBoot.RUN_MARKER);
        try {
            if (!Files.exists(marker)) {
                // written whole beside it, then linked in place: a reader never sees it half
                // written, and of two agents making it at once one id wins
                Files.createDirectories(marker.getParent());
                Path temp = Files.createTempFile(marker.getParent(), ".boot-", "");
                try {
                    Files.writeString(temp, UUID.randomUUID() + "\n");
                    Files.createLink(marker, temp);
                } catch (FileAlreadyExistsException e) {
                    // made meanwhile in this boot: that is the id
                } finally {
                    Files.deleteIfExists(temp);
                }
            }
            return Files.readString(marker).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot keep the boot marker " + HostBoot.RUN_MARKER + ": " + e.getMessage(),
                    e);
        }
    }

    @Override
    public Optional<String> bootFailure() {
        String image = text(REQUESTED);
        if (image.isEmpty()) return Optional.empty();
        String failed = failedOn(image);
        if (failed != null) return Optional.of(failed);
        if (image.equals(text(NODE_IMAGE + "/staged/ref"))
                && files.read(NODE_IMAGE + "/staged/ready") != null)
            return Optional.of(
                    "the node image "
                            + image
                            + " was staged but not put in place at boot (is"
                            + " upshift-node-image-activate.service enabled on the host?)");
        return Optional.empty();
    }

    /** The host's words on falling back from {@code image}, or null when it has not. */
    private String failedOn(String image) {
        String failed = text(NODE_IMAGE + "/failed");
        return HostOs.fellBackFrom(failed, image) ? failed : null;
    }

    /** A host file's text, stripped; "" when there is none. */
    private String text(String path) {
        byte[] read = files.read(path);
        return read == null ? "" : new String(read, StandardCharsets.UTF_8).strip();
    }

    @Override
    public void stageOs(OsTarget target) {
        String fellBack = failedOn(target.osImageUrl());
        if (fellBack != null) throw new IllegalStateException(fellBack);
        String record = record(target);
        byte[] read = files.read(STAGED);
        String staged = read == null ? "" : new String(read, StandardCharsets.UTF_8);
        if (staged.equals(record)) return;
        // no image asked and nothing staged beyond an image to take away: the booted OS stays as it
        // is
        if (target.isEmpty() && staged.lines().count() <= 1) return;
        files.write(REQUESTED, line(target.osImageUrl()), 0644);
        files.write(KERNEL_ARGUMENTS, lines(target.kernelArguments()), 0644);
        files.write(EXTENSIONS, lines(target.extensions()), 0644);
        files.write(KERNEL_TYPE, line(target.kernelType()), 0644);
        systemctl("daemon-reload"); // the unit may have come with this very config
        Commands.Result r = systemctl("start", "--wait", UPDATE_UNIT);
        if (r.code() != 0) {
            throw new IllegalStateException(
                    "the host's "
                            + UPDATE_UNIT
                            + " failed to switch the OS to "
                            + target.describe()
                            + " (exit code "
                            + r.code()
                            + "): "
                            + tail(r.output()));
        }
        files.write(STAGED, record.getBytes(StandardCharsets.UTF_8), 0644);
    }

    /**
     * What was staged: the image on the first line (all there is for an image alone), then what
     * else was asked.
     */
    static String record(OsTarget target) {
        StringBuilder out = new StringBuilder(target.osImageUrl()).append('\n');
        if (!target.kernelArguments().isEmpty())
            out.append("kernel-arguments: ")
                    .append(String.join(" ", target.kernelArguments()))
                    .append('\n');
        if (!target.extensions().isEmpty())
            out.append("extensions: ").append(String.join(" ", target.extensions())).append('\n');
        if (!target.kernelType().equals("default"))
            out.append("kernel-type: ").append(target.kernelType()).append('\n');
        return out.toString();
    }

    private static byte[] line(String value) {
        return (value + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] lines(List<String> values) {
        StringBuilder out = new StringBuilder();
        values.forEach(v -> out.append(v).append('\n'));
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void reboot() throws InterruptedException {
        check(systemctl("reboot"), "systemctl reboot");
        // the host goes down and stops this process with it (the kubelet first, through its
        // graceful shutdown): until then there is nothing to do, and an interrupt is that stop
        Thread.sleep(Long.MAX_VALUE);
    }

    @Override
    public void reloadUnit(String unit) {
        check(systemctl("reload", unit), "systemctl reload " + unit);
    }

    @Override
    public void restartUnit(String unit) {
        check(systemctl("restart", unit), "systemctl restart " + unit);
    }

    @Override
    public void daemonReload() {
        check(systemctl("daemon-reload"), "systemctl daemon-reload");
    }

    private static void check(Commands.Result r, String what) {
        if (r.code() != 0)
            throw new IllegalStateException(
                    what + " failed (exit code " + r.code() + "): " + tail(r.output()));
    }

    private Commands.Result systemctl(String... args) {
        List<String> argv = new ArrayList<>(List.of("chroot", root.toString(), "systemctl"));
        argv.addAll(Arrays.asList(args));
        return commands.run(argv);
    }

    /** The last lines of a command's output: the part that says what went wrong. */
    static String tail(String output) {
        List<String> lines = output.strip().lines().toList();
        String last =
                String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        return last.isEmpty() ? "no output" : last;
    }

    static Commands.Result exec(List<String> argv) {
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
