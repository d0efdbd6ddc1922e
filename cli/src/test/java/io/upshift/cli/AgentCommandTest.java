package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent checks its node before anything else: a host root that is no host's says what is
 * missing, in one line, exit code 1.
 */
class AgentCommandTest {

    @TempDir Path dir;

    @Test
    void aHostRootWithoutSystemdIsRefusedBeforeTheAgentStarts() throws Exception {
        Files.createDirectories(dir.resolve("etc"));
        // no kubeconfig is needed: the check comes first
        CliRun.Result r =
                CliRun.run(
                        "agent",
                        "--node-name",
                        "n1",
                        "--host-root",
                        dir.toString(),
                        "--kubeconfig",
                        dir.resolve("absent").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().lines())
                .singleElement()
                .asString()
                .startsWith("upshift: ")
                // as root (the tests' usual user) chroot finds no systemctl in the directory; as
                // another user, that is what is missing
                .containsAnyOf(
                        "cannot run the host's systemd: chroot "
                                + dir
                                + " systemctl --version exited",
                        "not root");
    }
}
