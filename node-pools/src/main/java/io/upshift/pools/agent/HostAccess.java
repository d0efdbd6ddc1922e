package io.upshift.pools.agent;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What the node agent needs of its node, checked once before it starts, so that a DaemonSet that
 * does not give it says so in one line instead of failing each step later: to run as root (the
 * machine-config daemon does), the host's {@code /} mounted at the host root, writable there, and
 * the host's systemd runnable through {@code chroot} (how {@link SystemdHost} reaches it). The
 * decisions are pure over a {@link Probe}; {@link #REAL} looks at this process and this machine.
 */
public final class HostAccess {

    /** What the check looks at. */
    public interface Probe {
        /** The user id this process runs as; negative when it cannot be told. */
        long uid();

        boolean isDirectory(Path p);

        /** Null when a file can be created and removed in {@code dir}; else why not. */
        String tryWrite(Path dir);

        SystemdHost.Commands.Result run(List<String> argv);
    }

    private HostAccess() {}

    /**
     * What is missing for an agent whose host root is {@code root}, as one line; empty when nothing
     * is.
     */
    public static Optional<String> missing(Path root, Probe probe) {
        long uid = probe.uid();
        if (uid > 0) {
            return Optional.of(
                    "the node agent runs as user "
                            + uid
                            + ", not root: it writes the host's files and runs its systemd through"
                            + " chroot; set runAsUser: 0 in its container's securityContext"
                            + " (deploy/pools.yaml's machine-config-daemon)");
        }
        if (!probe.isDirectory(root)) {
            return Optional.of(
                    "the host root "
                            + root
                            + " is not a directory: mount the host's / there (a hostPath volume of"
                            + " /, or --host-root DIR)");
        }
        // the agent writes under the host's /etc (its files, units and OS switch inputs); a root
        // without one is written at its top
        Path writable = probe.isDirectory(root.resolve("etc")) ? root.resolve("etc") : root;
        String write = probe.tryWrite(writable);
        if (write != null) {
            return Optional.of(
                    "cannot write under the host root: "
                            + write
                            + " (mount the host's / read-write at "
                            + root
                            + ", and run privileged)");
        }
        List<String> argv = List.of("chroot", root.toString(), "systemctl", "--version");
        SystemdHost.Commands.Result r = probe.run(argv);
        if (r.code() != 0) {
            return Optional.of(
                    "cannot run the host's systemd: "
                            + String.join(" ", argv)
                            + " exited "
                            + r.code()
                            + ": "
                            + SystemdHost.tail(r.output())
                            + hint(r));
        }
        return Optional.empty();
    }

    private static String hint(SystemdHost.Commands.Result r) {
        if (r.output().startsWith("cannot run chroot")) return " (the agent's image needs chroot)";
        if (r.output().contains("Operation not permitted"))
            return " (run the agent as root, privileged)";
        if (r.code() == 127) return " (is the host's / mounted there?)";
        return "";
    }

    /** This process on this machine. */
    public static final Probe REAL =
            new Probe() {
                @Override
                public long uid() {
                    try {
                        // the owner of /proc/self is the process's own user
                        return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid"))
                                .longValue();
                    } catch (IOException | UnsupportedOperationException e) {
                        return -1;
                    }
                }

                @Override
                public boolean isDirectory(Path p) {
                    return Files.isDirectory(p);
                }

                @Override
                public String tryWrite(Path dir) {
                    try {
                        Files.delete(Files.createTempFile(dir, ".upshift-agent-check-", ""));
                        return null;
                    } catch (AccessDeniedException e) {
                        return "cannot create a file in " + dir + ": permission denied";
                    } catch (FileSystemException e) {
                        return "cannot create a file in "
                                + dir
                                + ": "
                                + (e.getReason() != null
                                        ? e.getReason()
                                        : e.getClass().getSimpleName());
                    } catch (IOException e) {
                        return "cannot create a file in " + dir + ": " + e.getMessage();
                    }
                }

                @Override
                public SystemdHost.Commands.Result run(List<String> argv) {
                    return SystemdHost.exec(argv);
                }
            };
}
