package io.upshift.pools.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's start check names exactly what its DaemonSet fails to give it. The decisions are
 * checked over a fake probe (the tests run as root, where permission bits stop nothing); the real
 * probe is checked on a temporary directory, which root may write and whose "host" has no systemd.
 */
class HostAccessTest {

    @TempDir Path dir;

    /**
     * A node as the fake sees it: the user, the directories there are, those that refuse writes,
     * and what chroot answers.
     */
    record Fake(
            long uid,
            Set<Path> dirs,
            Set<Path> readOnly,
            SystemdHost.Commands.Result systemctl,
            List<List<String>> ran)
            implements HostAccess.Probe {
        Fake(long uid, Set<Path> dirs, Set<Path> readOnly, SystemdHost.Commands.Result systemctl) {
            this(uid, dirs, readOnly, systemctl, new ArrayList<>());
        }

        @Override
        public boolean isDirectory(Path p) {
            return dirs.contains(p);
        }

        @Override
        public String tryWrite(Path d) {
            return readOnly.contains(d)
                    ? "cannot create a file in " + d + ": Read-only file system"
                    : null;
        }

        @Override
        public SystemdHost.Commands.Result run(List<String> argv) {
            ran.add(argv);
            return systemctl;
        }
    }

    private static final Path HOST = Path.of("/host");
    private static final SystemdHost.Commands.Result SYSTEMD =
            new SystemdHost.Commands.Result(0, "systemd 252 (252-51.el9)\n+PAM +AUDIT");

    @Test
    void aNodeThatGivesItAllPasses() {
        Fake node = new Fake(0, Set.of(HOST, HOST.resolve("etc")), Set.of(), SYSTEMD);
        assertThat(HostAccess.missing(HOST, node)).isEmpty();
        assertThat(node.ran())
                .containsExactly(List.of("chroot", "/host", "systemctl", "--version"));
    }

    @Test
    void theImagesUserIsNotRoot() {
        assertThat(
                        HostAccess.missing(
                                HOST,
                                new Fake(
                                        1001,
                                        Set.of(HOST, HOST.resolve("etc")),
                                        Set.of(),
                                        SYSTEMD)))
                .contains(
                        "the node agent runs as user 1001, not root: it writes the host's files and"
                                + " runs its systemd through chroot; set runAsUser: 0 in its"
                                + " container's securityContext (deploy/pools.yaml's"
                                + " machine-config-daemon)");
    }

    @Test
    void noHostRootMounted() {
        assertThat(HostAccess.missing(HOST, new Fake(0, Set.of(), Set.of(), SYSTEMD)))
                .contains(
                        "the host root /host is not a directory: mount the host's / there (a"
                                + " hostPath volume of /, or --host-root DIR)");
    }

    @Test
    void aReadOnlyHostRoot() {
        Optional<String> missing =
                HostAccess.missing(
                        HOST,
                        new Fake(
                                0,
                                Set.of(HOST, HOST.resolve("etc")),
                                Set.of(HOST.resolve("etc")),
                                SYSTEMD));
        assertThat(missing)
                .contains(
                        "cannot write under the host root: cannot create a file in /host/etc:"
                            + " Read-only file system (mount the host's / read-write at /host, and"
                            + " run privileged)");
        // a root without etc/ is tried at its top
        assertThat(HostAccess.missing(HOST, new Fake(0, Set.of(HOST), Set.of(HOST), SYSTEMD)))
                .get()
                .asString()
                .contains("in /host:");
    }

    @Test
    void noChrootInTheImageNoSystemctlOnTheHostOrNoPrivilege() {
        Set<Path> dirs = Set.of(HOST, HOST.resolve("etc"));
        assertThat(
                        HostAccess.missing(
                                HOST,
                                new Fake(
                                        0,
                                        dirs,
                                        Set.of(),
                                        new SystemdHost.Commands.Result(
                                                127,
                                                "cannot run chroot: Cannot run program \"chroot\":"
                                                        + " error=2, No such file or directory"))))
                .contains(
                        "cannot run the host's systemd: chroot /host systemctl --version exited"
                            + " 127: cannot run chroot: Cannot run program \"chroot\": error=2, No"
                            + " such file or directory (the agent's image needs chroot)");
        assertThat(
                        HostAccess.missing(
                                HOST,
                                new Fake(
                                        0,
                                        dirs,
                                        Set.of(),
                                        new SystemdHost.Commands.Result(
                                                127,
                                                "chroot: failed to run command 'systemctl': No such"
                                                        + " file or directory\n"))))
                .contains(
                        "cannot run the host's systemd: chroot /host systemctl --version exited"
                                + " 127: chroot: failed to run command 'systemctl': No such file or"
                                + " directory (is the host's / mounted there?)");
        assertThat(
                        HostAccess.missing(
                                HOST,
                                new Fake(
                                        0,
                                        dirs,
                                        Set.of(),
                                        new SystemdHost.Commands.Result(
                                                125,
                                                "chroot: cannot change root directory to '/host':"
                                                        + " Operation not permitted\n"))))
                .contains(
                        "cannot run the host's systemd: chroot /host systemctl --version exited"
                            + " 125: chroot: cannot change root directory to '/host': Operation not"
                            + " permitted (run the agent as root, privileged)");
    }

    @Test
    void theRealProbeWritesATemporaryDirectoryAndFindsNoSystemdInIt() throws Exception {
        Files.createDirectories(dir.resolve("etc"));
        assertThat(HostAccess.REAL.isDirectory(dir)).isTrue();
        assertThat(HostAccess.REAL.tryWrite(dir.resolve("etc"))).isNull();
        assertThat(HostAccess.REAL.tryWrite(dir.resolve("absent")))
                .startsWith("cannot create a file in " + dir.resolve("absent"));
        try (var left = Files.list(dir.resolve("etc"))) {
            assertThat(left).as("the probe file is removed").isEmpty();
        }
        assertThat(HostAccess.REAL.uid()).isGreaterThanOrEqualTo(0);
        // whoever runs the tests, a temporary directory is no host with a systemd: the check says
        // so (or that it is not root)
        assertThat(HostAccess.missing(dir, HostAccess.REAL))
                .get()
                .asString()
                .containsAnyOf("cannot run the host's systemd", "not root");
    }
}
