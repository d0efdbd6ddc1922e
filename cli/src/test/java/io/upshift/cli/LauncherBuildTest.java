package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository's launcher, {@code ./upshift}, builds Upshift when its sources changed: a build
 * that fails ends the command with Maven's last lines and its exit code, rather than waiting for an
 * exit line that never comes (here Maven is a stand-in that fails at once).
 */
class LauncherBuildTest {
    @TempDir Path dir;

    @Test
    void aFailedBuildEndsTheCommandWithItsExitCode() throws Exception {
        Path launcher = dir.resolve("upshift");
        Files.copy(Path.of("../upshift"), launcher);
        Path mvnw = dir.resolve("mvnw");
        Files.writeString(
                mvnw,
                "#!/bin/sh\necho '[INFO] Building Upshift api 0.1.0 [1/14]'\n"
                        + "echo '[ERROR] planted failure'\nexit 3\n");
        launcher.toFile().setExecutable(true);
        mvnw.toFile().setExecutable(true);
        Path jar = Files.createDirectories(dir.resolve("cli/target")).resolve("upshift-cli.jar");
        Files.writeString(jar, "");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        Files.writeString(
                Files.createDirectories(dir.resolve("cli/src/main")).resolve("A.java"), "");

        Process p =
                new ProcessBuilder(launcher.toString(), "status").redirectErrorStream(true).start();
        // a generous bound: the failure is a second's work; the launcher used to wait forever
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the launcher ended").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isEqualTo(3);
        assertThat(out)
                .contains("upshift: building Upshift api [1/14]")
                .contains("[ERROR] planted failure")
                .contains("upshift: the build failed (exit 3)");
    }
}
